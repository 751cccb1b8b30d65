import {
  type AnchorHTMLAttributes,
  Component,
  type ComponentType,
  createContext,
  type ErrorInfo,
  type MouseEvent,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { matchRoutes, type Params, type Match as PathMatch } from './match-path.ts';

export { generatePath, matchPath, type Params } from './match-path.ts';

/**
 * The router of the portal and the admin console: history routing over a route table, with lazily loaded route chunks
 * and an error element, in the few hundred bytes the login route can afford (issue 11's
 * 100 kB budget left no room for a general-purpose router's 31 kB). What it does, and nothing
 * more:
 * - paths with `:name` and optional `:name?` segments and a `*` catch-all, matched in order;
 * - a navigation to a lazy route keeps the current screen until the chunk has arrived (no
 *   blank frame), and a chunk that fails raises the route's error element;
 * - `navigate(to, { replace, state })`, history state per entry, the back button.
 */

export interface RouteObject {
  path?: string;
  element?: ReactNode;
  /** Loads the route's screen on first use (a chunk of its own). */
  lazy?: () => Promise<{ Component: ComponentType }>;
  /** Shown in place of this route and its children when they fail to load or render. */
  errorElement?: ReactNode;
  children?: RouteObject[];
}

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry passed along (e.g. the typed e-mail). */
  state: unknown;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

type Match = PathMatch<RouteObject>;

interface RouterState {
  location: Location;
  match: Match | null;
  /** A lazy chunk that failed; the nearest error element shows it. */
  error: unknown;
}

export interface Router {
  readonly state: RouterState;
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  subscribe(listener: () => void): () => void;
  /** A lazy route's screen, once its chunk has arrived. */
  componentOf(route: RouteObject): ComponentType | undefined;
  /** Settles once the first screen's chunk (if any) has arrived. */
  readonly ready: Promise<void>;
}

function currentLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as { usr?: unknown } | null;
  return { pathname, search, hash, state: entry?.usr ?? null };
}

export function createRouter(routes: RouteObject[]): Router {
  const listeners = new Set<() => void>();
  const loaded = new Map<RouteObject, ComponentType>();
  let state: RouterState = { location: currentLocation(), match: null, error: null };
  let latest = 0;

  /**
   * Loads the branch's lazy chunks, outermost first. When one fails, the branch ends at the
   * route that failed, so its error goes to the nearest error element at or above that route
   * (a layout's chunk that fails has no screen to draw below it).
   */
  async function load(match: Match | null): Promise<{ match: Match | null; error: unknown }> {
    if (!match) return { match, error: null };
    for (const [i, route] of match.branch.entries()) {
      if (!route.lazy || loaded.has(route)) continue;
      try {
        loaded.set(route, (await route.lazy()).Component);
      } catch (error) {
        return { match: { ...match, branch: match.branch.slice(0, i + 1) }, error };
      }
    }
    return { match, error: null };
  }

  /**
   * Shows the screen for a path once its chunk is there; `commit` then writes the history
   * entry, so the address and the screen change together (as a full page load would).
   */
  async function resolve(pathname: string, commit: () => void): Promise<void> {
    const ticket = ++latest;
    const { match, error } = await load(matchRoutes(routes, pathname));
    // A later navigation started while this one waited for its chunk: that one wins.
    if (ticket !== latest) return;
    commit();
    state = { location: currentLocation(), match, error };
    for (const listener of listeners) listener();
  }

  window.addEventListener('popstate', () => void resolve(window.location.pathname, () => {}));
  return {
    get state() {
      return state;
    },
    ready: resolve(window.location.pathname, () => {}),
    navigate(to: string, options: NavigateOptions = {}) {
      const url = new URL(to, window.location.href);
      if (url.origin !== window.location.origin) {
        window.location.assign(url.href);
        return Promise.resolve();
      }
      const entry = { usr: options.state ?? null };
      return resolve(url.pathname, () => {
        if (options.replace) window.history.replaceState(entry, '', url.href);
        else window.history.pushState(entry, '', url.href);
      });
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    componentOf: (route) => loaded.get(route),
  };
}

interface RouteContextValue {
  router: Router;
  params: Params;
  error: unknown;
  /** What an <Outlet /> at this level renders. */
  outlet: ReactNode;
}

const RouterContext = createContext<RouteContextValue | null>(null);

function useRoute(): RouteContextValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('Router hooks are used inside <RouterProvider>.');
  return value;
}

class RouteErrorBoundary extends Component<
  { fallback: ReactNode; value: RouteContextValue; resetKey: string; children: ReactNode },
  { error: unknown; resetKey: string }
> {
  override state = { error: null as unknown, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: unknown; resetKey: string },
  ): { error: unknown; resetKey: string } | null {
    // A navigation elsewhere gives the new screen a fresh start.
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <RouterContext.Provider value={{ ...this.props.value, error: this.state.error }}>
        {this.props.fallback}
      </RouterContext.Provider>
    );
  }
}

export function RouterProvider({ router }: { router: Router }) {
  const state = useSyncExternalStore(router.subscribe, () => router.state);
  const { match, location, error } = state;
  if (!match) return null;
  const params = match.params;
  const resetKey = `${location.pathname}${location.search}`;
  // Built from the leaf outwards: each route's element gets its child as its outlet.
  let outlet: ReactNode = null;
  let failure: unknown = error;
  for (let i = match.branch.length - 1; i >= 0; i--) {
    const route = match.branch[i]!;
    const Lazy = router.componentOf(route);
    const value: RouteContextValue = { router, params, error: null, outlet };
    let element: ReactNode = route.element ?? (Lazy ? <Lazy /> : null);
    if (route.errorElement && failure) {
      element = route.errorElement;
      outlet = (
        <RouterContext.Provider value={{ ...value, error: failure }}>{element}</RouterContext.Provider>
      );
      failure = null;
      continue;
    }
    element = <RouterContext.Provider value={value}>{element}</RouterContext.Provider>;
    outlet = route.errorElement ? (
      <RouteErrorBoundary fallback={route.errorElement} value={value} resetKey={resetKey}>
        {element}
      </RouteErrorBoundary>
    ) : (
      element
    );
  }
  return outlet;
}

/** Where a layout route shows its matched child. */
export function Outlet() {
  return <>{useRoute().outlet}</>;
}

export function useLocation(): Location {
  const { router } = useRoute();
  return useSyncExternalStore(router.subscribe, () => router.state.location);
}

export function useParams(): Params {
  return useRoute().params;
}

/** The current address's query (read-only: screens navigate to change it). */
export function useSearchParams(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  const { router } = useRoute();
  return useMemo(
    () => (to: string, options?: NavigateOptions) => {
      void router.navigate(to, options);
    },
    [router],
  );
}

/** The error the nearest error element is showing. */
export function useRouteError(): unknown {
  return useRoute().error;
}

/** Navigates as soon as it is rendered. */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
  state?: unknown;
  /** A full page load instead of an in-app navigation. */
  reloadDocument?: boolean;
};

/** A real link (open in a new tab works) that navigates in the app on a plain click. */
export function Link({ to, replace, state, reloadDocument, onClick, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      reloadDocument ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (rest.target && rest.target !== '_self')
    )
      return;
    event.preventDefault();
    navigate(to, { replace, state });
  };
  return <a {...rest} href={to} onClick={handleClick} />;
}
