/**
 * What keeps the preview from acting. The real screens are drawn as they are, so their forms,
 * links and arrival effects are real too; here they reach nothing:
 * - a form's submission, a link's click and the language menu's change are stopped before
 *   React sees them (capture phase, on the window), so no handler runs and no browser
 *   navigation starts; navigations a screen asks for itself go to the fixture router;
 * - a middle click (`auxclick`) on a link is stopped the same way, so no link opens in a new tab;
 * - the page sends no requests: `fetch` and `sendBeacon` refuse as if offline, and an
 *   `XMLHttpRequest`, `WebSocket` or `EventSource` cannot even be made. One real screen calls on
 *   arrival (the code-entry screen reports an analytics event), and it already drops a failed
 *   call; nothing else is changed for the preview. The server's policy for the preview
 *   (`connect-src 'none'`, security.ts) refuses them in the browser as well, should a way
 *   around these be found.
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
  window.addEventListener('auxclick', onClick, true);
  window.addEventListener('change', onChange, true);
  // For as long as the page lives: it is the preview and nothing else (no navigation leaves it).
  window.fetch = () => Promise.reject(new TypeError('The theme preview sends no requests.'));
  navigator.sendBeacon = () => false;
  window.XMLHttpRequest = refusedConstructor('XMLHttpRequest');
  window.WebSocket = refusedConstructor('WebSocket');
  window.EventSource = refusedConstructor('EventSource');
}

/** A stand-in for a way of sending requests: making one throws, as the preview sends none. */
function refusedConstructor<T>(name: string): T {
  return class {
    constructor() {
      throw new TypeError(`The theme preview sends no requests (${name}).`);
    }
  } as unknown as T;
}
