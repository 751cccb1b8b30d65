/**
 * What the visitor typed into the server-rendered login form (apps/server/src/http/first-paint.ts)
 * before the script replaced it: kept for the script's e-mail step.
 */
let typed: { email: string; focused: boolean } | null = null;

/** Keeps what was typed into the server-rendered form before the script replaces it. */
export function keepFirstPaintInput(): void {
  const input = document.querySelector<HTMLInputElement>('[data-kc-first-paint] input[name="email"]');
  if (input && (input.value || document.activeElement === input)) {
    typed = { email: input.value, focused: document.activeElement === input };
  }
}

/** The address typed before the script ran, and whether its field had focus. */
export function firstPaintInput(): { email: string; focused: boolean } | null {
  return typed;
}

/** Used once, by the first e-mail step: later visits start from their own state. */
export function clearFirstPaintInput(): void {
  typed = null;
}
