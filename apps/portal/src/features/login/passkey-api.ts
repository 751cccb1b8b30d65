import type { LoginResponse } from '@keycard/contract/api';
import { passkeyApi } from '@keycard/contract/passkey-api';
import type { PasskeyAssertion, PasskeyRequestOptionsResponse } from '@keycard/contract/passkeys';
import { storageKeys } from '@keycard/contract/user-state';
import { apiRequest } from '../../lib/api.ts';
import { flowStorage } from '../../lib/storage.ts';

/**
 * The passkey sign-in's calls (docs/passkeys.md), apart from api.ts: only the passkey's own
 * chunk (passkey-sign-in.ts) makes them, so the login route does not carry them.
 */
export const passkeyLoginApi = {
  /** Options for a passkey sign-in: a challenge for this host, no account named (discoverable). */
  passkeyOptions: () => apiRequest<PasskeyRequestOptionsResponse>('POST', passkeyApi.signInOptions, {}),
  /** A passkey sign-in: answers the same single-use code as the password step. */
  passkeySignIn: (credential: PasskeyAssertion, state: string) => {
    const iid = flowStorage.get(storageKeys.iid);
    return apiRequest<LoginResponse>('POST', passkeyApi.signIn, {
      credential,
      state,
      ...(iid ? { iid } : {}),
    });
  },
};
