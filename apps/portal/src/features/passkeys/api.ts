import type { AuthorizeInteraction } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptionsResponse,
  PasskeyListResponse,
  PasskeyRequestOptionsResponse,
  PasskeyResponse,
  PasskeyVerifyResponse,
} from '@keycard/contract/passkeys';
import { apiRequest } from '../../lib/api.ts';

/** The passkey offer's and the step-up's calls (docs/passkeys.md; types only from the contract). */
export const passkeysApi = {
  /** The signed-in account's passkeys (whether one works on this domain already). */
  list: () => apiRequest<PasskeyListResponse>('GET', apiPaths.passkeys.list),
  registrationOptions: () =>
    apiRequest<PasskeyCreationOptionsResponse>('POST', apiPaths.passkeys.registrationOptions, {}),
  register: (credential: PasskeyAttestation) =>
    apiRequest<PasskeyResponse>('POST', apiPaths.passkeys.register, { credential }),
  /** A challenge for one of the account's passkeys on this domain (the step-up). */
  verifyOptions: () => apiRequest<PasskeyRequestOptionsResponse>('POST', apiPaths.passkeys.verifyOptions, {}),
  verify: (credential: PasskeyAssertion) =>
    apiRequest<PasskeyVerifyResponse>('POST', apiPaths.passkeys.verify, { credential }),
  /** The app whose request asks for the step-up: its name. */
  interaction: (iid: string) =>
    apiRequest<AuthorizeInteraction>(
      'GET',
      `${apiPaths.authorizeInteraction}?${new URLSearchParams({ iid })}`,
    ),
  /** Back to the app without the step-up: where the provider returns the user to it. */
  abort: (iid: string) => apiRequest<{ location: string }>('POST', apiPaths.authorizeAbort, { iid }),
};
