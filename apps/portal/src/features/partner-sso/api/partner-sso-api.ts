import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type { PartnerSsoResponse } from '@keycard/contract/partners';
import { apiRequest } from '../../../lib/api.ts';

/** The partner sign-in's calls (SPEC §7). */
export const partnerSsoApi = {
  /** Trades the partner's signed token for a session (cookie) and the partner identity token. */
  signIn: (partnerCode: string, token: string) =>
    apiRequest<PartnerSsoResponse>('POST', apiPaths.partners.sso(partnerCode), { token }),
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
};
