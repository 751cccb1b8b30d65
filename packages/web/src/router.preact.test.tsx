// @vitest-environment happy-dom
/**
 * The portal runs the router on Preact through preact/compat (its build aliases React to it).
 * This file loads a copy of the router with React resolved to Preact the same way, and runs the
 * behaviours the portal leans on. The aliases hold only while that copy is imported: unit files
 * share one module graph, and the other files must keep React. Elements are made with the
 * aliased createElement (no JSX), so they are Preact's while typed as React's, as in the portal.
 */
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';

const preactFor = {
  react: 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
} as const;
for (const [name, replacement] of Object.entries(preactFor)) vi.doMock(name, () => import(replacement));
// A module id of its own, so the React copy that other files import is neither reused nor replaced.
const preactRouter = './router.tsx?preact';
const { createRouter, Link, Outlet, RouterProvider, useLocation, useRouteError } = (await import(
  /* @vite-ignore */ preactRouter
)) as typeof import('./router.tsx');
const compat = await import('react');
const { createRoot } = await import('react-dom/client');
for (const name of Object.keys(preactFor)) vi.doUnmock(name);
type RouteObject = import('./router.tsx').RouteObject;
const h = compat.createElement;

const unmounts: (() => void)[] = [];

afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  vi.restoreAllMocks();
});

async function settle(step: () => unknown = () => undefined) {
  await act(async () => {
    await step();
    await new Promise((done) => setTimeout(done, 0));
  });
}

async function renderRouter(routes: RouteObject[], at: string) {
  window.history.replaceState(null, '', at);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  unmounts.push(() => {
    root.unmount();
    container.remove();
  });
  const router = createRouter(routes);
  await settle(() => root.render(h(RouterProvider, { router })));
  return { router, container, text: () => container.textContent ?? '' };
}

function Where() {
  const { pathname, state } = useLocation();
  return h('p', null, `at ${pathname} ${JSON.stringify(state)}`);
}

function ErrorView() {
  const error = useRouteError();
  return h('p', null, `error: ${error instanceof Error ? error.message : String(error)}`);
}

function Boom(): never {
  throw new Error('screen broke');
}

const layout = (children: RouteObject[]): RouteObject => ({
  element: h(compat.Fragment, null, h('nav', null, 'chrome '), h(Outlet)),
  errorElement: h(ErrorView),
  children,
});

describe('the router on Preact', () => {
  it('runs on Preact here, while the other files keep React', async () => {
    expect(compat.Component).toBe((await import('preact/compat')).Component);
    expect((await import('react')).Component).not.toBe(compat.Component);
  });

  it('keeps the current screen and address until the next chunk has arrived', async () => {
    const chunk = Promise.withResolvers<{ Component: typeof Where }>();
    const view = await renderRouter(
      [
        layout([
          { path: '/a', element: h(Where) },
          { path: '/b', lazy: () => chunk.promise },
        ]),
      ],
      '/a',
    );
    await settle(() => void view.router.navigate('/b', { state: 'from a' }));
    expect(view.text()).toBe('chrome at /a null');
    expect(window.location.pathname).toBe('/a');

    await settle(() => chunk.resolve({ Component: Where }));
    expect(view.text()).toBe('chrome at /b "from a"');
    expect(window.location.pathname).toBe('/b');
  });

  it('shows the error element, with the error, for a chunk that fails and a screen that throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = await renderRouter(
      [
        layout([
          { path: '/a', element: h(Where) },
          { path: '/boom', element: h(Boom) },
          { path: '/gone', lazy: () => Promise.reject(new Error('chunk gone')) },
        ]),
      ],
      '/a',
    );
    await settle(() => view.router.navigate('/gone'));
    expect(view.text()).toBe('error: chunk gone');
    await settle(() => view.router.navigate('/boom'));
    expect(view.text()).toBe('error: screen broke');
    await settle(() => view.router.navigate('/a'));
    expect(view.text()).toBe('chrome at /a null');
  });

  it('navigates on a plain Link click, and leaves a Ctrl-click to the browser', async () => {
    const view = await renderRouter(
      [
        { path: '/a', element: h(Link, { to: '/b' }, 'to b') },
        { path: '/b', element: h(Where) },
      ],
      '/a',
    );
    /** Whether the app took the click over; then cancelled, so the test DOM loads no page. */
    const click = async (init: MouseEventInit) => {
      let takenOver = false;
      const observe = (event: Event) => {
        takenOver = event.defaultPrevented;
        event.preventDefault();
      };
      document.addEventListener('click', observe);
      const link = view.container.querySelector('a')!;
      await settle(() =>
        link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init })),
      );
      document.removeEventListener('click', observe);
      return takenOver;
    };
    expect(await click({ ctrlKey: true })).toBe(false);
    expect(window.location.pathname).toBe('/a');
    expect(await click({})).toBe(true);
    expect(view.text()).toBe('at /b null');
  });
});
