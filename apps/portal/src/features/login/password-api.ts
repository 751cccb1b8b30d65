import type { LoginResponse } from '@keycard/contract/api';
import { partnerApi } from '@keycard/contract/partner-api';
import type { HelpLinkResponse } from '@keycard/contract/partners';
import { signInApi } from '@keycard/contract/sign-in-api';
import { storageKeys } from '@keycard/contract/user-state';
import { apiRequest } from '../../lib/api.ts';
import { deviceTokenField } from '../../lib/device-id.ts';
import { flowStorage } from '../../lib/storage.ts';

/** The password step's calls: with its chunk (password-step.tsx), not in the login route. */
export const passwordApi = {
  /** The password step; a trusted browser presents its device token (its own lockout key). */
  login: (email: string, password: string, state: string) => {
    const iid = flowStorage.get(storageKeys.iid);
    return apiRequest<LoginResponse>('POST', signInApi.login, {
      email,
      password,
      state,
      ...deviceTokenField(),
      ...(iid ? { iid } : {}),
    });
  },
  /** A partner's trouble-logging-in link for this address (the same for every address's existence). */
  partnerHelpLink: (partnerCode: string, email: string) =>
    apiRequest<HelpLinkResponse>('GET', partnerApi.helpLink(partnerCode, email)),
};
