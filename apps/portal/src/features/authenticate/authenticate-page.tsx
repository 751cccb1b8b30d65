import type { UserIdentity } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import type { UserState } from '@keycard/contract/user-state';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useBranding } from '../../app/theme.tsx';
import { apiRequest } from '../../lib/api.ts';
import { deviceTokenField } from '../../lib/device-id.ts';
import { mfaFlowKeys, mfaResetPurpose } from '../../lib/mfa-flow.ts';
import { flowStorage, loginStateKey } from '../../lib/storage.ts';
import { LoadingPage } from '../../ui/page.tsx';

/**
 * SPEC §4: where the user goes after the code exchange, by state. applyMfa is set by the
 * portal's own password login; a hand-off without it (e.g. a partner's optional MFA) skips the
 * registration reminder. The server has already decided the state: these routes only choose
 * the screen, and /api/authorize refuses a session that skipped a required step.
 */
export function routeForState(state: UserState, query: URLSearchParams): string {
  switch (state) {
    case 'MFA_REGISTRATION_RECOMMENDED':
      return query.has('applyMfa') ? paths.mfa : paths.authenticated;
    case 'MFA_REGISTRATION_REQUIRED':
    case 'MFA_VERIFICATION_REQUIRED':
      return paths.mfa;
    case 'AUTHENTICATED':
      return query.get('purpose') === mfaResetPurpose ? paths.mfaReset : paths.authenticated;
    case 'PASSWORD_EXPIRED':
      return paths.passwordExpired;
    default:
      return paths.error;
  }
}

export function AuthenticatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query] = useSearchParams();
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
      .then((identity) => navigate(routeForState(identity.state, query), { replace: true }))
      .catch(() => navigate(paths.error, { replace: true }));
  }, [branding, query, navigate]);

  return <LoadingPage titleKey="titles.authenticate" label={t('authenticate.loading')} />;
}
