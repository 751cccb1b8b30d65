// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, renderRouter, unmountAll } from './router.test-support.tsx';
import { Link, Navigate, Outlet, useLocation, useParams } from './router.tsx';

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

function Where() {
  const { pathname, state } = useLocation();
  return <p>{`at ${pathname} ${JSON.stringify(state)}`}</p>;
}

function ShowParams() {
  return <output>{JSON.stringify(useParams())}</output>;
}

const params = (container: HTMLElement) =>
  JSON.parse(container.querySelector('output')?.textContent ?? 'null');

describe('Link', () => {
  const linkTo = (props: Partial<Parameters<typeof Link>[0]> = {}) => [
    {
      path: '/a',
      element: (
        <Link to="/b" className="button" aria-describedby="hint" {...props}>
          to b
        </Link>
      ),
    },
    { path: '/b', element: <Where /> },
  ];

  it('is a real link to the address, with the attributes it was given', async () => {
    const view = await renderRouter(linkTo({ target: '_blank', rel: 'noopener' }), '/a');
    const link = view.container.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/b');
    expect(link.className).toBe('button');
    expect(link.getAttribute('aria-describedby')).toBe('hint');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(link.textContent).toBe('to b');
  });

  it('navigates in the app on a plain click, without a page load', async () => {
    const view = await renderRouter(linkTo(), '/a');
    const entries = window.history.length;
    const { leftToBrowser } = await click(view.container.querySelector('a')!);
    expect(leftToBrowser).toBe(false);
    expect(view.text()).toBe('at /b null');
    expect(window.location.pathname).toBe('/b');
    expect(window.history.length).toBe(entries + 1);
  });

  it('passes replace and state to the navigation', async () => {
    const view = await renderRouter(linkTo({ replace: true, state: { from: 'a' } }), '/a');
    const entries = window.history.length;
    await click(view.container.querySelector('a')!);
    expect(view.text()).toBe('at /b {"from":"a"}');
    expect(window.history.length).toBe(entries);
  });

  it.each([
    ['with Ctrl', { ctrlKey: true }],
    ['with Cmd', { metaKey: true }],
    ['with Shift', { shiftKey: true }],
    ['with Alt', { altKey: true }],
    ['with the middle button', { button: 1 }],
  ])('leaves a click %s to the browser (new tab, new window, download)', async (_, init) => {
    const view = await renderRouter(linkTo(), '/a');
    const { leftToBrowser } = await click(view.container.querySelector('a')!, init);
    expect(leftToBrowser).toBe(true);
    expect(view.text()).toBe('to b');
    expect(window.location.pathname).toBe('/a');
  });

  it('leaves a link with another target to the browser', async () => {
    const view = await renderRouter(linkTo({ target: '_blank' }), '/a');
    const { leftToBrowser } = await click(view.container.querySelector('a')!);
    expect(leftToBrowser).toBe(true);
    expect(window.location.pathname).toBe('/a');
  });

  it('navigates in the app when its target is this frame', async () => {
    const view = await renderRouter(linkTo({ target: '_self' }), '/a');
    const { leftToBrowser } = await click(view.container.querySelector('a')!);
    expect(leftToBrowser).toBe(false);
    expect(view.text()).toBe('at /b null');
  });

  it('leaves the click to the browser with reloadDocument', async () => {
    const view = await renderRouter(linkTo({ reloadDocument: true }), '/a');
    const { leftToBrowser } = await click(view.container.querySelector('a')!);
    expect(leftToBrowser).toBe(true);
    expect(window.location.pathname).toBe('/a');
  });

  it('runs its onClick first, which may cancel the navigation', async () => {
    const seen: string[] = [];
    const view = await renderRouter(
      linkTo({
        onClick: (event) => {
          seen.push(window.location.pathname);
          event.preventDefault();
        },
      }),
      '/a',
    );
    await click(view.container.querySelector('a')!);
    expect(seen).toEqual(['/a']);
    expect(view.text()).toBe('to b');
    expect(window.location.pathname).toBe('/a');
  });

  it('navigates after an onClick that does not cancel', async () => {
    const onClick = vi.fn();
    const view = await renderRouter(linkTo({ onClick }), '/a');
    await click(view.container.querySelector('a')!);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(view.text()).toBe('at /b null');
  });
});

describe('Navigate', () => {
  it('navigates as soon as it is drawn, in place of the entry with replace', async () => {
    const entries = window.history.length;
    const view = await renderRouter(
      [
        { path: '/', element: <Navigate to="/login?client=demo" replace /> },
        { path: '/login', element: <Where /> },
      ],
      '/',
    );
    expect(view.text()).toBe('at /login null');
    expect(window.location.search).toBe('?client=demo');
    expect(window.history.length).toBe(entries);
  });

  it('adds a history entry without replace', async () => {
    const view = await renderRouter(
      [
        { path: '/old', element: <Navigate to="/new" /> },
        { path: '/new', element: <Where /> },
      ],
      '/old',
    );
    const entries = window.history.length;
    await view.navigate('/old');
    expect(view.text()).toBe('at /new null');
    expect(window.history.length).toBe(entries + 2);
  });
});

describe('useParams', () => {
  it('gives the matched route’s decoded params, an absent optional one left out', async () => {
    const view = await renderRouter(
      [{ path: '/console/tenants/:code/:section?', element: <ShowParams /> }],
      '/console/tenants/caf%C3%A9%2F1',
    );
    expect(params(view.container)).toEqual({ code: 'café/1' });

    await view.navigate('/console/tenants/acme/keys');
    expect(params(view.container)).toEqual({ code: 'acme', section: 'keys' });
  });

  it('gives a layout the params of the screen it holds', async () => {
    const view = await renderRouter(
      [
        {
          element: (
            <>
              <ShowParams />
              <Outlet />
            </>
          ),
          children: [{ path: '/preview/:screen', element: <p>screen</p> }],
        },
      ],
      '/preview/login',
    );
    expect(params(view.container)).toEqual({ screen: 'login' });
    expect(view.text()).toContain('screen');
  });

  it('gives no params on a static route', async () => {
    const view = await renderRouter([{ path: '/login', element: <ShowParams /> }], '/login');
    expect(params(view.container)).toEqual({});
  });
});

describe('the router hooks', () => {
  it('say where they belong when used outside <RouterProvider>', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const root = createRoot(document.createElement('div'));
    expect(() => act(() => root.render(<ShowParams />))).toThrow('inside <RouterProvider>');
    act(() => root.unmount());
  });
});
