import { act, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { vi } from 'vitest';
import { createRouter, type RouteObject, type Router, RouterProvider } from './router.tsx';

/**
 * Renders the router over a route table in the test's DOM (happy-dom), as the portal and the
 * console do, starting at an address. Tests drive it with `navigate` and clicks, and read what a
 * user sees: the text on screen and the browser's address bar and history.
 */
export interface RenderedRouter {
  router: Router;
  container: HTMLElement;
  /** The text on screen. */
  text(): string;
  /** Navigates and waits until the screen (and any chunk it needs) has settled. */
  navigate(to: string, options?: Parameters<Router['navigate']>[1]): Promise<void>;
}

const mounted: { root: Root; container: HTMLElement }[] = [];

export async function renderRouter(
  routes: RouteObject[],
  at = '/',
  historyState: unknown = null,
): Promise<RenderedRouter> {
  // React warns about updates outside act() unless it knows it runs under a test.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  window.history.replaceState(historyState, '', at);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push({ root, container });
  const router = createRouter(routes);
  // Not `await router.ready`: a test may hold the first screen's chunk back.
  await settle(() => root.render(<RouterProvider router={router} />));
  return {
    router,
    container,
    text: () => container.textContent ?? '',
    navigate: (to, options) => settle(() => router.navigate(to, options)),
  };
}

/** Unmounts what renderRouter drew; each file calls it after each test. */
export function unmountAll(): void {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount());
    container.remove();
  }
}

/** Runs a step under act and waits until the promises and renders it set off have settled. */
export function settle(step: () => unknown = () => undefined): Promise<void> {
  return act(async () => {
    await step();
    // A macrotask runs after every microtask the step queued (a chunk's arrival, a commit).
    await new Promise((done) => setTimeout(done, 0));
  });
}

/** A lazy route's chunk that arrives (or fails) when the test says so. */
export function chunk(Component: ComponentType) {
  const { promise, resolve, reject } = Promise.withResolvers<{ Component: ComponentType }>();
  const load = vi.fn(() => promise);
  return {
    load,
    arrive: () => settle(() => resolve({ Component })),
    fail: (error: unknown) => settle(() => reject(error)),
  };
}

/**
 * A click as the browser dispatches it. Whether the app took the click over (called
 * preventDefault) is read after React's handler ran; the click is then cancelled so that the
 * test DOM does not load the link's page itself.
 */
export async function click(
  element: Element,
  init: MouseEventInit = {},
): Promise<{ leftToBrowser: boolean }> {
  let leftToBrowser = true;
  const observe = (event: Event) => {
    leftToBrowser = !event.defaultPrevented;
    event.preventDefault();
  };
  document.addEventListener('click', observe);
  try {
    await settle(() =>
      element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init })),
    );
  } finally {
    document.removeEventListener('click', observe);
  }
  return { leftToBrowser };
}
