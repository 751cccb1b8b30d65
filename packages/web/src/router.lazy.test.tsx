// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunk, renderRouter, settle, unmountAll } from './router.test-support.tsx';
import { Outlet, type RouteObject, useRouteError } from './router.tsx';

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

const Screen = (name: string) => () => <p>{name}</p>;

function ErrorView() {
  const error = useRouteError();
  return <p>error: {error instanceof Error ? error.message : String(error)}</p>;
}

function Boom(): never {
  throw new Error('screen broke');
}

/** A layout with its own chrome, as the console's and the portal's have. */
const layout = (children: RouteObject[], errorElement: RouteObject['errorElement'] = <ErrorView />) => ({
  element: (
    <>
      <nav>chrome </nav>
      <Outlet />
    </>
  ),
  errorElement,
  children,
});

/** Error boundaries report what they caught; the tests read the screen instead. */
const quietErrors = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

describe('lazily loaded route chunks', () => {
  it('keep the current screen and address until the next chunk has arrived', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        { path: '/b', lazy: b.load },
      ],
      '/a',
    );
    expect(view.text()).toBe('A');

    await settle(() => void view.router.navigate('/b'));
    expect(b.load).toHaveBeenCalledTimes(1);
    expect(view.text()).toBe('A');
    expect(window.location.pathname).toBe('/a');
    expect(view.router.state.location.pathname).toBe('/a');

    await b.arrive();
    expect(view.text()).toBe('B');
    expect(window.location.pathname).toBe('/b');
  });

  it('show the first screen once its chunk has arrived, and nothing before', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter([{ path: '/b', lazy: b.load }], '/b');
    expect(view.container.innerHTML).toBe('');

    await b.arrive();
    await view.router.ready;
    expect(view.text()).toBe('B');
  });

  it('are loaded once: a screen seen before comes back without loading again', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        { path: '/b', lazy: b.load },
      ],
      '/a',
    );
    const first = view.navigate('/b');
    await b.arrive();
    await first;
    await view.navigate('/a');
    await view.navigate('/b');
    expect(view.text()).toBe('B');
    expect(b.load).toHaveBeenCalledTimes(1);
  });

  it('let a later navigation win over one still waiting for its chunk', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        { path: '/b', lazy: b.load },
        { path: '/c', element: <p>C</p> },
      ],
      '/a',
    );
    const entries = window.history.length;
    await settle(() => void view.router.navigate('/b'));
    await view.navigate('/c');
    expect(view.text()).toBe('C');

    await b.arrive();
    expect(view.text()).toBe('C');
    expect(window.location.pathname).toBe('/c');
    // One entry, for /c: the abandoned navigation to /b wrote none.
    expect(window.history.length).toBe(entries + 1);
  });

  it('show the route’s error element when the chunk fails, with the error from useRouteError', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        { path: '/b', lazy: b.load, errorElement: <ErrorView /> },
      ],
      '/a',
    );
    await settle(() => void view.router.navigate('/b'));
    await b.fail(new Error('chunk gone'));
    expect(view.text()).toBe('error: chunk gone');
    // The address is the one the user asked for: a reload there tries the chunk again.
    expect(window.location.pathname).toBe('/b');
  });

  it('fail into the nearest layout’s error element, which takes the layout’s place', async () => {
    const b = chunk(Screen('B'));
    const view = await renderRouter(
      [
        layout([
          { path: '/a', element: <p>A</p> },
          { path: '/b', lazy: b.load },
        ]),
      ],
      '/a',
    );
    expect(view.text()).toBe('chrome A');
    await settle(() => void view.router.navigate('/b'));
    await b.fail(new Error('chunk gone'));
    expect(view.text()).toBe('error: chunk gone');
  });

  it('of a layout that fail show the layout’s error element, not its screen’s', async () => {
    const shell = chunk(Screen('shell'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        {
          lazy: shell.load,
          errorElement: <ErrorView />,
          children: [{ path: '/page', element: <p>page</p>, errorElement: <p>page error</p> }],
        },
      ],
      '/a',
    );
    await settle(() => void view.router.navigate('/page'));
    await shell.fail(new Error('shell gone'));
    expect(view.text()).toBe('error: shell gone');
  });

  it('that failed are tried again on the next visit', async () => {
    let attempts = 0;
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        {
          path: '/b',
          errorElement: <ErrorView />,
          lazy: async () => {
            attempts += 1;
            if (attempts === 1) throw new Error('offline');
            return { Component: Screen('B') };
          },
        },
      ],
      '/a',
    );
    await view.navigate('/b');
    expect(view.text()).toBe('error: offline');
    await view.navigate('/a');
    expect(view.text()).toBe('A');
    await view.navigate('/b');
    expect(view.text()).toBe('B');
    expect(attempts).toBe(2);
  });

  it('load a layout’s chunk and its screen’s before either is shown', async () => {
    const shell = chunk(() => (
      <>
        shell <Outlet />
      </>
    ));
    const page = chunk(Screen('page'));
    const view = await renderRouter(
      [
        { path: '/a', element: <p>A</p> },
        { lazy: shell.load, children: [{ path: '/page', lazy: page.load }] },
      ],
      '/a',
    );
    await settle(() => void view.router.navigate('/page'));
    await shell.arrive();
    expect(view.text()).toBe('A');
    await page.arrive();
    expect(view.text()).toBe('shell page');
  });
});

describe('a screen that throws', () => {
  it('shows the error element, whose useRouteError gives the thrown error', async () => {
    const errors = quietErrors();
    const view = await renderRouter(
      [
        layout([
          { path: '/a', element: <p>A</p> },
          { path: '/boom', element: <Boom /> },
        ]),
      ],
      '/a',
    );
    await view.navigate('/boom');
    expect(view.text()).toBe('error: screen broke');
    expect(errors).toHaveBeenCalled();
  });

  it('keeps the layout when the screen’s own route has the error element', async () => {
    quietErrors();
    const view = await renderRouter(
      [layout([{ path: '/boom', element: <Boom />, errorElement: <ErrorView /> }], <p>layout error</p>)],
      '/boom',
    );
    expect(view.text()).toBe('chrome error: screen broke');
  });

  it('gives way to the next screen when the user navigates on', async () => {
    quietErrors();
    const view = await renderRouter(
      [
        layout([
          { path: '/a', element: <p>A</p> },
          { path: '/boom', element: <Boom /> },
        ]),
      ],
      '/boom',
    );
    expect(view.text()).toBe('error: screen broke');
    await view.navigate('/a');
    expect(view.text()).toBe('chrome A');
  });
});

describe('what is drawn', () => {
  it('is nothing when no route matches the address', async () => {
    const view = await renderRouter([{ path: '/a', element: <p>A</p> }], '/nowhere');
    expect(view.container.innerHTML).toBe('');
    await view.navigate('/a');
    expect(view.text()).toBe('A');
  });

  it('gives no error to useRouteError outside an error element', async () => {
    const view = await renderRouter([{ path: '/a', element: <ErrorView /> }], '/a');
    expect(view.text()).toBe('error: null');
  });
});
