import type { UserIdentity } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { useBranding } from '../../lib/branding.tsx';
import { deviceTokenField, forgetLegacyDeviceId } from '../../lib/device-id.ts';
import { mfaFlowKeys, mfaResetPurpose } from '../../lib/mfa-flow.ts';
import { routeForState } from '../../lib/route-for-state.ts';
import { flowStorage, loginStateKey } from '../../lib/storage.ts';

/**
 * /authenticate?code&state: trades the login's one-time code for the session, once the
 * tenant is known, and goes on to the screen the session's state asks for (routeForState).
 * Any refusal (a wrong state, a spent or expired code) ends on the unknown-error page.
 */
export function useCodeExchange(): void {
  const navigate = useNavigate();
  const query = useSearchParams();
  const branding = useBranding();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !branding) return;
    started.current = true;
    const code = query.get('code');
    const state = query.get('state');
    const expected = flowStorage.get(loginStateKey);
    flowStorage.remove(loginStateKey);
    // The state proves this browser started the login that produced the code.
    if (!code || !state || state !== expected) {
      navigate(paths.error, { replace: true });
      return;
    }
    // Kept for the reset page; the server answers it back only when it is registered.
    const mfaResetRedirectUri = query.get('mfaResetRedirectUri');
    if (mfaResetRedirectUri) flowStorage.set(mfaFlowKeys.resetRedirectUri, mfaResetRedirectUri);
    if (query.get('purpose') === mfaResetPurpose) flowStorage.set(mfaFlowKeys.purpose, mfaResetPurpose);
    else flowStorage.remove(mfaFlowKeys.purpose);
    apiRequest<UserIdentity>('POST', apiPaths.authenticate, {
      code,
      tenantCode: branding.tenantCode,
      redirectUri: `${window.location.origin}${paths.authenticate}`,
      ...deviceTokenField(),
    })
      .then((identity) => {
        forgetLegacyDeviceId();
        navigate(routeForState(identity.state, query), { replace: true });
      })
      .catch(() => navigate(paths.error, { replace: true }));
  }, [branding, query, navigate]);
}
