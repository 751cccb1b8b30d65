import type { AuthorizeInteraction, LoginResponse, SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type { HelpLinkResponse } from '@keycard/contract/partners';
import { storageKeys } from '@keycard/contract/user-state';
import { apiRequest } from '../../lib/api.ts';
import { deviceTokenField } from '../../lib/device-id.ts';
import { flowStorage } from '../../lib/storage.ts';

/** The login flow's calls (SPEC §7; types only from the contract: no zod in the login route). */
export const loginApi = {
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
  /** The password step; a trusted browser presents its device token (its own lockout key). */
  login: (email: string, password: string, state: string) => {
    const iid = flowStorage.get(storageKeys.iid);
    return apiRequest<LoginResponse>('POST', apiPaths.login, {
      email,
      password,
      state,
      ...deviceTokenField(),
      ...(iid ? { iid } : {}),
    });
  },
  /** The app this browser's pending sign-in (`iid`) is for: its name, for "Back to <app>". */
  interaction: (iid: string) =>
    apiRequest<AuthorizeInteraction>(
      'GET',
      `${apiPaths.authorizeInteraction}?${new URLSearchParams({ iid })}`,
    ),
  /** Back to the app without signing in: answers where the provider returns the user to it. */
  abort: (iid: string) => apiRequest<{ location: string }>('POST', apiPaths.authorizeAbort, { iid }),
  /** A partner's trouble-logging-in link for this address (the same for every address's existence). */
  partnerHelpLink: (partnerCode: string, email: string) =>
    apiRequest<HelpLinkResponse>('GET', apiPaths.partners.helpLink(partnerCode, email)),
};
