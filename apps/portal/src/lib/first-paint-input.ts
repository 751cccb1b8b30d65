/**
 * What the visitor typed into the server-rendered login form (apps/server/src/http/first-paint.ts)
 * before the script replaced it, for the script's e-mail step. The form's field is followed
 * until the e-mail step reads it, right after it replaced the form (a layout effect, before the
 * browser handles any further input): a character typed while the script was starting up is
 * not lost, however long the start-up took.
 */
let field: HTMLInputElement | null = null;
let focused = false;

/** Starts following the server-rendered e-mail field (called before the script renders). */
export function keepFirstPaintInput(): void {
  field = document.querySelector<HTMLInputElement>('[data-kc-first-paint] input[name="email"]');
  if (!field) return;
  focused = document.activeElement === field;
  // A field removed while focused fires no blur: it stays "focused", as the visitor left it.
  field.addEventListener('focus', () => {
    focused = true;
  });
  field.addEventListener('blur', () => {
    focused = false;
  });
}

/** The address in the server-rendered field (as it is now), and whether it had focus. */
export function firstPaintInput(): { email: string; focused: boolean } | null {
  if (!field || (!field.value && !focused)) return null;
  return { email: field.value, focused };
}

/** Used once, by the first e-mail step: later visits start from their own state. */
export function clearFirstPaintInput(): void {
  field = null;
  focused = false;
}
