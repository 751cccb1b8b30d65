import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type { GenerateTokenResponse } from '@keycard/contract/partners';
import { apiRequest } from '../../lib/api.ts';
import { deviceTokenField } from '../../lib/device-id.ts';

/** The hand-off's calls (SPEC §7). */
export const authenticatedApi = {
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
  /** Finishes the app's pending request (iid), or resolves a redirect for a portal login. */
  authorize: (target: { iid: string } | { redirectUri: string }) =>
    apiRequest<{ location: string }>('POST', apiPaths.authorize, { ...target, ...deviceTokenField() }),
  /** SPEC §4 step 4: a one-time hand-off code for the partner app of an authx session. */
  generatePartnerCode: (partnerCode: string, body: { token: string; redirectUri?: string }) =>
    apiRequest<GenerateTokenResponse>('POST', apiPaths.partners.generateToken(partnerCode), body),
};
