import type { ErrorDefinition } from './error-definition.ts';
import { type PasskeyErrorCode, passkeyErrors } from './passkey-errors.ts';

/** Status and API message of every passkey error code, each given once. */
export const passkeyErrorCatalogue: { readonly [C in PasskeyErrorCode]: ErrorDefinition } = {
  [passkeyErrors.notOffered]: { status: 403, message: 'This sign-in does not offer passkeys.' },
  [passkeyErrors.challengeInvalid]: {
    status: 400,
    message: 'This passkey request has expired or was used already; start again.',
  },
  [passkeyErrors.verificationFailed]: { status: 401, message: 'The passkey could not be verified.' },
  [passkeyErrors.unknownCredential]: { status: 401, message: 'This passkey is not registered here.' },
  [passkeyErrors.alreadyRegistered]: {
    status: 409,
    message: 'This authenticator holds a passkey for your account already.',
  },
  [passkeyErrors.limitReached]: { status: 409, message: 'Your account has as many passkeys as it may have.' },
  [passkeyErrors.notFound]: { status: 404, message: 'Your account has no such passkey.' },
  [passkeyErrors.stepUpRequired]: {
    status: 401,
    message: 'The app asks you to sign in with a passkey or security key.',
  },
  [passkeyErrors.rateLimited]: { status: 429, message: 'Too many passkey attempts; try again later.' },
};
