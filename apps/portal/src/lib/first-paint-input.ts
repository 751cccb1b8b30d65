/**
 * What the visitor typed into the server-rendered login form (apps/server/src/surfaces/web/first-paint.ts)
 * before the script replaced it, for the script's e-mail step. The e-mail step reads it right
 * after it replaced the form (a layout effect, in the same task, before the browser handles any
 * further input): a character typed while the script was starting up is not lost, however long
 * the start-up took, and a field that had the focus hands it on without a moment in between.
 */
let field: HTMLInputElement | null = null;
let focused = false;

/**
 * Notes the server-rendered e-mail field and whether it has the focus, in the task that
 * renders the script's form. Whether it had the focus is read here, not followed: replacing the
 * form takes the focus off the field (Chromium fires its blur), and that blur is not the
 * visitor's.
 */
export function keepFirstPaintInput(): void {
  field = document.querySelector<HTMLInputElement>('[data-kc-first-paint] input[name="email"]');
  focused = field !== null && document.activeElement === field;
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

/** Longest the script waits for a press on the server-rendered form to end (a missed release). */
const pressWaitMs = 3000;

/**
 * Resolves once no press on the server-rendered form is in progress. The script replaces that
 * form: a press begun on its Next and released on the script's own button clicks neither, and
 * the visitor's Next is lost. So a press under way (mouse, touch or the space bar: `:active`)
 * is let finish first; its click, and the form's submission, happen before the script renders.
 */
export function firstPaintFormSettled(): Promise<void> {
  if (!document.querySelector('[data-kc-first-paint] :active')) return Promise.resolve();
  return new Promise((resolve) => {
    const events = ['pointerup', 'pointercancel', 'keyup'] as const;
    const settle = () => {
      for (const name of events) window.removeEventListener(name, settle, true);
      clearTimeout(timer);
      // The release's click (and a submission it starts) is dispatched right after it.
      setTimeout(resolve, 0);
    };
    const timer = setTimeout(settle, pressWaitMs);
    for (const name of events) window.addEventListener(name, settle, true);
  });
}
