import { useLocation } from '@keycard/web/router';
import { useEffect } from 'react';

/**
 * Rendered by the root route. Once a navigation has completed (this effect runs after the
 * page is on screen), it hands the path to the widget code, which is loaded on demand and so
 * stays out of the login page's entry chunk.
 */
export function MessengerLauncher() {
  const { pathname } = useLocation();
  useEffect(() => {
    import('./messenger.ts')
      .then((messenger) => messenger.followNavigation(pathname))
      // No widget is better than a failed page: a chunk that cannot load is ignored here.
      .catch(() => undefined);
  }, [pathname]);
  return null;
}
