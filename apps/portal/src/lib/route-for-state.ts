import { paths } from '@keycard/contract/paths';
import type { UserState } from '@keycard/contract/user-state';
import { mfaResetPurpose } from './mfa-flow.ts';

/**
 * SPEC §4: where the user goes once a sign-in has opened a session, by state — after the
 * code exchange (/authenticate) and after a partner's token (/partners/…/sso). applyMfa is set
 * by the portal's own password login and by partner sign-ins (the tenant's MFA policy applies
 * to them too); a hand-off without it skips the registration reminder. The server has
 * already decided the state: these routes only choose the screen, and /api/authorize and
 * generate-token refuse a session that skipped a required step.
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

/**
 * The partner SSO page's route with the token optional (SPEC §2 /partners/:partnerCode/sso/:token):
 * the page takes the token out of the address, and the address without it stays on the page.
 */
export const partnerSsoRoute = `${paths.partnerSso}?`;
