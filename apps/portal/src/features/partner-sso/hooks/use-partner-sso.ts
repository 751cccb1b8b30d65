import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { generatePath, useLocation, useNavigate, useParams } from '@keycard/web/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { partnerSsoRoute, routeForState } from '../../../lib/route-for-state.ts';
import { flowStorage, partnerIdentity } from '../../../lib/storage.ts';
import { partnerSsoApi } from '../api/partner-sso-api.ts';
import { partnerSsoFailure } from '../partner-sso-errors.ts';

/**
 * SPEC §2/§4 partner single sign-on. The token is taken out of the address bar and the
 * history entry before anything else (it is a bearer credential: screenshots, shared
 * history and extensions must not see it), kept in memory only, and traded once for a
 * session; the partner identity token that comes back is kept for /authenticated step 4.
 * Then the session's state picks the next screen exactly as after /authenticate.
 * A retry after a network failure resumes at the step that failed: the partner token is
 * single use, so once it was accepted only the session is read again.
 */
export function usePartnerSso(): {
  networkError: boolean;
  emailUnverified: boolean;
  retry: () => void;
  giveUp: () => void;
} {
  const { partnerCode, token } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const started = useRef(false);
  const pendingToken = useRef<string | null>(null);
  const [networkError, setNetworkError] = useState(false);
  const [emailUnverified, setEmailUnverified] = useState(false);

  const signIn = useCallback(async () => {
    setNetworkError(false);
    try {
      if (pendingToken.current !== null) {
        if (!partnerCode) throw new Error('partner code missing');
        const answer = await partnerSsoApi.signIn(partnerCode, pendingToken.current);
        pendingToken.current = null;
        partnerIdentity.set({ token: answer.token, tenantCode: answer.tenantCode });
      } else if (!partnerIdentity.get()) {
        // Opened without a token (e.g. reloaded after it was removed): nothing to sign in with.
        throw new Error('partner token missing');
      }
      const session = await partnerSsoApi.session();
      if (!session.exists || session.provider !== 'authx') throw new Error('no partner session');
      // applyMfa: the tenant's MFA policy applies to partner sign-ins like to any other.
      navigate(routeForState(session.identity.state, new URLSearchParams({ applyMfa: 'true' })), {
        replace: true,
      });
    } catch (caught) {
      const failure = partnerSsoFailure(caught);
      if (failure.kind === 'retry') setNetworkError(true);
      else if (failure.kind === 'unverified') setEmailUnverified(true);
      else navigate(failure.to, { replace: true });
    }
  }, [partnerCode, navigate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per opened link; the token is read before it leaves the address
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    pendingToken.current = token ?? null;
    // A partner link starts a flow of its own: no earlier app request or redirect carries over.
    const redirectUri = new URLSearchParams(location.search).get('redirectUri');
    if (redirectUri) flowStorage.set(storageKeys.redirectUri, redirectUri);
    else flowStorage.remove(storageKeys.redirectUri);
    flowStorage.remove(storageKeys.iid);
    if (token) {
      partnerIdentity.clear();
      const stripped = `${generatePath(partnerSsoRoute, { partnerCode: partnerCode ?? '' })}${location.search}`;
      // At once, before the router's own (asynchronous) navigation catches up.
      window.history.replaceState(window.history.state, '', stripped);
      navigate(stripped, { replace: true });
    }
    void signIn();
  }, []);

  return {
    networkError,
    emailUnverified,
    retry: () => void signIn(),
    giveUp: () => navigate(paths.error, { replace: true }),
  };
}
