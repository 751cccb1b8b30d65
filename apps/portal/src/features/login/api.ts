import type { AuthorizeInteraction, SessionResponse } from '@keycard/contract/api';
import { signInApi } from '@keycard/contract/sign-in-api';
import { apiRequest } from '../../lib/api.ts';

/**
 * The calls both login steps make (SPEC §7; types only from the contract: no zod in the login
 * route). The password step's own are in password-api.ts, with its chunk.
 */
export const loginApi = {
  session: () => apiRequest<SessionResponse>('GET', signInApi.session),
  /** The app this browser's pending sign-in (`iid`) is for: its name, for "Back to <app>". */
  interaction: (iid: string) =>
    apiRequest<AuthorizeInteraction>(
      'GET',
      `${signInApi.authorizeInteraction}?${new URLSearchParams({ iid })}`,
    ),
  /** Back to the app without signing in: answers where the provider returns the user to it. */
  abort: (iid: string) => apiRequest<{ location: string }>('POST', signInApi.authorizeAbort, { iid }),
};
