import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect } from 'react';
import { isReauthentication } from '../../lib/reauthentication.ts';
import { flowStorage } from '../../lib/storage.ts';
import { loginApi } from './api.ts';

/**
 * Keeps iid and redirectUri from the query for the rest of the flow (AUTH_X_IID,
 * AUTH_X_REDIRECT_URI). When an app asks to sign in while this browser already has a complete
 * session, goes on to /authenticated — unless the app asked for a fresh sign-in (the
 * reauthentication marker): that session is exactly what it refused, so going on would loop.
 */
export function useFlowParams(): void {
  const params = useSearchParams();
  const navigate = useNavigate();
  const iid = params.get('iid');
  const redirectUri = params.get('redirectUri');
  const reauthentication = isReauthentication(params);
  useEffect(() => {
    if (iid) flowStorage.set(storageKeys.iid, iid);
    if (redirectUri) flowStorage.set(storageKeys.redirectUri, redirectUri);
    if (!iid || reauthentication) return;
    let cancelled = false;
    loginApi
      .session()
      .then((session) => {
        if (
          !cancelled &&
          session.exists &&
          session.identity.state === 'AUTHENTICATED' &&
          !session.identity.emailVerificationRequired
        ) {
          navigate(paths.authenticated, { replace: true });
        }
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [iid, redirectUri, reauthentication, navigate]);
}
