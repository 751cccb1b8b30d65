/**
 * What keeps the preview from acting. The real screens are drawn as they are, so their forms,
 * links and arrival effects are real too; here they reach nothing:
 * - a form's submission, a link's click and the language menu's change are stopped before
 *   React sees them (capture phase, on the window), so no handler runs and no browser
 *   navigation starts; navigations a screen asks for itself go to the fixture router;
 * - the page sends no requests: `fetch` and `sendBeacon` refuse as if offline. One real screen
 *   calls on arrival (the code-entry screen reports an analytics event), and it already drops a
 *   failed call; nothing else is changed for the preview.
 */
export function makePreviewInert(): void {
  const stop = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
  };
  const onSubmit = (event: Event) => stop(event);
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('a[href], button[type="submit"], input[type="submit"]')) stop(event);
  };
  const onChange = (event: Event) => {
    const target = event.target;
    if (!(target instanceof HTMLSelectElement)) return;
    event.stopPropagation();
    // The console picks the language: the menu goes back to the one drawn.
    target.value = document.documentElement.lang;
  };
  window.addEventListener('submit', onSubmit, true);
  window.addEventListener('click', onClick, true);
  window.addEventListener('change', onChange, true);
  // For as long as the page lives: it is the preview and nothing else (no navigation leaves it).
  window.fetch = () => Promise.reject(new TypeError('The theme preview sends no requests.'));
  navigator.sendBeacon = () => false;
}
