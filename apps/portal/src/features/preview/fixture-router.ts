import type { Location, RouteObject, Router } from '@keycard/web/router';
import type { ReactNode } from 'react';

/**
 * A router that stays on one screen: the screen reads its address, query and history state
 * (the password step's typed address) from here, and every navigation it asks for — a link,
 * "Back", the end of a flow — goes nowhere. The page's own router is left alone.
 */
export function createFixtureRouter(
  element: ReactNode,
  location: Partial<Location> & { pathname: string },
): Router {
  const route: RouteObject = { path: location.pathname, element };
  const state: Router['state'] = {
    location: { search: '', hash: '', state: null, ...location },
    match: { branch: [route], params: {} },
    error: null,
  };
  return {
    state,
    ready: Promise.resolve(),
    navigate: () => Promise.resolve(),
    subscribe: () => () => undefined,
    componentOf: () => undefined,
  };
}
