import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { apiRequest } from '../../lib/api.ts';
import { deviceTokenField } from '../../lib/device-id.ts';

/** The hand-off's calls (SPEC §7). */
export const authenticatedApi = {
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
  /** Finishes the app's pending request (iid), or resolves a redirect for a portal login. */
  authorize: (target: { iid: string } | { redirectUri: string }) =>
    apiRequest<{ location: string }>('POST', apiPaths.authorize, { ...target, ...deviceTokenField() }),
};
