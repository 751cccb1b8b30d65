/**
 * The router's path matching, apart from React and the browser so it can be tested as data.
 * Patterns are `/`-separated segments: static text, `:name`, optional `:name?`, or the whole
 * pattern `*`. Empty segments do not count, so `/activate` and `/activate/` are one address.
 */

export type Params = Readonly<Record<string, string | undefined>>;

/** What matching reads from a route: its path, or the child routes of a layout. */
export interface PathRoute<R> {
  path?: string;
  children?: R[];
}

export interface Match<R> {
  /** The routes from the outermost layout to the matched leaf. */
  branch: R[];
  params: Params;
}

/** Matches one path pattern; params are decoded. */
export function matchPath(pattern: string, pathname: string): Params | null {
  if (pattern === '*') return {};
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  const params: Record<string, string | undefined> = {};
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    const part = want[i];
    const value = have[i];
    if (part === undefined) return null;
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      const name = part.slice(1, optional ? -1 : undefined);
      if (value === undefined) {
        if (!optional) return null;
        continue;
      }
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        // A malformed escape (`%E0%A4`) is no address of this route.
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}

/** A pattern with its params filled in; a missing optional param drops its segment. */
export function generatePath(pattern: string, params: Params): string {
  const parts = pattern.split('/').flatMap((part) => {
    if (!part.startsWith(':')) return [part];
    const optional = part.endsWith('?');
    const value = params[part.slice(1, optional ? -1 : undefined)];
    if (value === undefined) return optional ? [] : [''];
    return [encodeURIComponent(value)];
  });
  return parts.join('/') || '/';
}

/**
 * The first route, in table order, whose path matches; a layout (a route with children)
 * matches through its children and its own path is not read.
 */
export function matchRoutes<R extends PathRoute<R>>(routes: R[], pathname: string): Match<R> | null {
  for (const route of routes) {
    if (route.children) {
      const inner = matchRoutes(route.children, pathname);
      if (inner) return { branch: [route, ...inner.branch], params: inner.params };
    } else if (route.path !== undefined) {
      const params = matchPath(route.path, pathname);
      if (params) return { branch: [route], params };
    }
  }
  return null;
}
