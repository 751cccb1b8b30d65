import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type { PartnerSsoResponse } from '@keycard/contract/partners';
import { apiRequest } from '../../../lib/api.ts';
import { deviceTokenField } from '../../../lib/device-id.ts';

/** The partner sign-in's calls (SPEC §7). */
export const partnerSsoApi = {
  /**
   * Trades the partner's signed token for a session (cookie) and the partner identity token;
   * a device the user trusted after MFA presents its token, as at the code exchange.
   */
  signIn: (partnerCode: string, token: string) =>
    apiRequest<PartnerSsoResponse>('POST', apiPaths.partners.sso(partnerCode), {
      token,
      ...deviceTokenField(),
    }),
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
};
