import { useSearchParams } from '@keycard/web/router';
import { useCallback, useEffect, useState } from 'react';
import { loginApi } from './api.ts';

/**
 * "Back to <app>" on a login page that is part of an app's sign-in request (its `iid`): the
 * app's name, and going back without signing in. The server ends the request through the
 * provider, which returns the user to the app's registered redirect URI with
 * `error=access_denied` (OpenID Connect Core §3.1.2.6); the page only follows the provider's
 * own address. Null when the page is no part of a request, or the request is over.
 */
export function useBackToApp(): { appName: string; pending: boolean; goBack: () => void } | null {
  const iid = useSearchParams().get('iid');
  const [app, setApp] = useState<{ iid: string; name: string } | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!iid) return;
    let cancelled = false;
    loginApi
      .interaction(iid)
      .then((answer) => {
        if (!cancelled) setApp({ iid, name: answer.clientName });
      })
      // Not this browser's request, or it ended: there is nothing to go back to.
      .catch(() => {
        if (!cancelled) setApp(null);
      });
    return () => {
      cancelled = true;
    };
  }, [iid]);

  const goBack = useCallback(() => {
    if (!app) return;
    setPending(true);
    loginApi
      .abort(app.iid)
      .then(({ location }) => {
        // The provider's resume address, on this origin; nothing else is followed.
        if (new URL(location, window.location.href).origin !== window.location.origin) throw new Error();
        window.location.assign(location);
      })
      .catch(() => {
        setPending(false);
        setApp(null);
      });
  }, [app]);

  return app && app.iid === iid ? { appName: app.name, pending, goBack } : null;
}
