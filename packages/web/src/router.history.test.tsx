// @vitest-environment happy-dom
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunk, click, renderRouter, settle, unmountAll } from './router.test-support.tsx';
import { type NavigateOptions, useLocation, useNavigate, useSearchParams } from './router.tsx';

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

/** Shows the location as a screen reads it. */
function Where() {
  const { pathname, search, hash, state } = useLocation();
  return <output>{JSON.stringify({ pathname, search, hash, state })}</output>;
}

const where = (container: HTMLElement) =>
  JSON.parse(container.querySelector('output')?.textContent ?? 'null');

function NavigateButton({ to, options }: { to: string; options?: NavigateOptions }) {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(to, options)}>
      go
    </button>
  );
}

/** Keeps every navigate function a screen is given. */
function CollectNavigate({ seen }: { seen: Set<unknown> }) {
  seen.add(useNavigate());
  useLocation();
  return null;
}

function Query() {
  const query = useSearchParams();
  return <p>{`${query.get('q')} ${query.getAll('tag').join('+')}`}</p>;
}

/** Keeps every query object a screen is given, and counts its renders. */
function CollectSearchParams({ seen }: { seen: Set<URLSearchParams> }) {
  seen.add(useSearchParams());
  const renders = useRef(0);
  renders.current += 1;
  return <p>{renders.current}</p>;
}

const routes = [
  { path: '/a', element: <Where /> },
  { path: '/b', element: <Where /> },
  { path: '/c', element: <Where /> },
];

describe('useLocation', () => {
  it('gives the address and the state the navigation passed along', async () => {
    const view = await renderRouter(routes, '/a');
    expect(where(view.container)).toEqual({ pathname: '/a', search: '', hash: '', state: null });

    await view.navigate('/b?email=a%40b.test#form', { state: { email: 'a@b.test' } });
    expect(where(view.container)).toEqual({
      pathname: '/b',
      search: '?email=a%40b.test',
      hash: '#form',
      state: { email: 'a@b.test' },
    });
    expect(window.location.href).toBe('http://localhost:3000/b?email=a%40b.test#form');
  });

  it('keeps each history entry’s state: back and forward show the state of the entry they reach', async () => {
    const view = await renderRouter(routes, '/a');
    await view.navigate('/b', { state: 'from a' });
    await view.navigate('/c', { state: 'from b' });

    await settle(() => window.history.back());
    expect(where(view.container)).toEqual({ pathname: '/b', search: '', hash: '', state: 'from a' });
    await settle(() => window.history.back());
    expect(where(view.container)).toEqual({ pathname: '/a', search: '', hash: '', state: null });
    await settle(() => window.history.forward());
    expect(where(view.container)).toEqual({ pathname: '/b', search: '', hash: '', state: 'from a' });
  });

  it('reads the state of the entry the page starts on, as after a reload', async () => {
    const view = await renderRouter(routes, '/c', { usr: 'typed before the reload' });
    expect(where(view.container).state).toBe('typed before the reload');
  });

  it('after back to a screen whose chunk has not arrived, keeps the screen until it has', async () => {
    const b = chunk(Where);
    window.history.replaceState(null, '', '/b');
    window.history.pushState(null, '', '/a');
    const view = await renderRouter([routes[0]!, { path: '/b', lazy: b.load }], '/a');

    await settle(() => window.history.back());
    expect(where(view.container).pathname).toBe('/a');
    await b.arrive();
    expect(where(view.container).pathname).toBe('/b');
  });
});

describe('useNavigate', () => {
  it('adds a history entry, so back returns to the screen before', async () => {
    const view = await renderRouter(
      [{ path: '/a', element: <NavigateButton to="/b" /> }, ...routes.slice(1)],
      '/a',
    );
    const entries = window.history.length;
    await click(view.container.querySelector('button')!);
    expect(where(view.container).pathname).toBe('/b');
    expect(window.history.length).toBe(entries + 1);

    await settle(() => window.history.back());
    expect(window.location.pathname).toBe('/a');
    expect(view.text()).toBe('go');
  });

  it('with replace, takes the current entry’s place, so back skips it', async () => {
    const view = await renderRouter(
      [
        { path: '/a', element: <Where /> },
        { path: '/b', element: <NavigateButton to="/c" options={{ replace: true, state: 'replaced' }} /> },
        { path: '/c', element: <Where /> },
      ],
      '/a',
    );
    await view.navigate('/b');
    const entries = window.history.length;
    await click(view.container.querySelector('button')!);
    expect(where(view.container)).toEqual({ pathname: '/c', search: '', hash: '', state: 'replaced' });
    expect(window.history.length).toBe(entries);

    await settle(() => window.history.back());
    expect(where(view.container).pathname).toBe('/a');
  });

  it('resolves a relative address against the current one', async () => {
    const view = await renderRouter([{ path: '/users/:id', element: <Where /> }], '/users/1');
    await view.navigate('2?tab=keys');
    expect(where(view.container)).toMatchObject({ pathname: '/users/2', search: '?tab=keys' });
  });

  it('leaves the app for another origin with a full page load', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const view = await renderRouter(routes, '/a');
    const entries = window.history.length;
    await view.navigate('https://app.example.test/callback?code=1');
    expect(assign).toHaveBeenCalledWith('https://app.example.test/callback?code=1');
    expect(window.history.length).toBe(entries);
    expect(where(view.container).pathname).toBe('/a');
  });

  it('gives a screen the same function across renders', async () => {
    const seen = new Set<unknown>();
    const view = await renderRouter([{ path: '/a', element: <CollectNavigate seen={seen} /> }], '/a');
    await view.navigate('/a?x=1');
    await view.navigate('/a?x=2');
    expect(seen.size).toBe(1);
  });
});

describe('useSearchParams', () => {
  it('reads the current query and follows a navigation that changes it', async () => {
    const view = await renderRouter([{ path: '/search', element: <Query /> }], '/search?q=first&tag=a&tag=b');
    expect(view.text()).toBe('first a+b');

    await view.navigate('?q=caf%C3%A9+au+lait');
    expect(view.text()).toBe('café au lait ');
    expect(window.location.pathname).toBe('/search');

    await view.navigate('/search');
    expect(view.text()).toBe('null ');
  });

  it('follows the back button', async () => {
    const view = await renderRouter([{ path: '/search', element: <Query /> }], '/search?q=one');
    await view.navigate('/search?q=two');
    await settle(() => window.history.back());
    expect(view.text()).toBe('one ');
  });

  it('gives the same object while the query is the same, and a new one when it changes', async () => {
    const seen = new Set<URLSearchParams>();
    const view = await renderRouter(
      [{ path: '/search', element: <CollectSearchParams seen={seen} /> }],
      '/search?q=1',
    );
    await view.navigate('/search?q=1#results');
    expect(Number(view.text())).toBeGreaterThan(1);
    expect(seen.size).toBe(1);
    await view.navigate('/search?q=2');
    expect(seen.size).toBe(2);
  });
});
