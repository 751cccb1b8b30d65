import { useLocation } from '@keycard/web/router';
import { useEffect } from 'react';

/**
 * Once a navigation has completed (this effect runs after the page is on screen), hands the
 * path to the widget code, which is loaded on demand and so stays out of the login page's
 * entry chunk. No widget is better than a failed page: a chunk that cannot load is ignored.
 */
export function useMessenger(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    import('./messenger.ts').then((messenger) => messenger.followNavigation(pathname)).catch(() => undefined);
  }, [pathname]);
}
