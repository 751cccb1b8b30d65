/** The passkeys feature's public face: what other features and the surfaces may use. */
export { ceremonyToken, ensureCeremonyToken } from './ceremony-cookie.ts';
export {
  countCredentials,
  countPasskeysOnHost,
  listCredentials,
  passkeyDomainsOf,
  removeAllCredentials,
} from './passkey.repository.ts';
export type { PasskeyRow } from './passkey.schema.ts';
export type { PasskeyDeps, PasskeyHost } from './passkey-ceremony.ts';
export { passkeyLimit } from './passkey-ceremony.ts';
export {
  listPasskeys,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  summaryOf,
} from './passkey-registration.service.ts';
export type { PasskeyCodeData } from './passkey-sign-in.service.ts';
export {
  passkeySignInOptions,
  passkeyVerifyOptions,
  signInWithPasskey,
  verifyWithPasskey,
} from './passkey-sign-in.service.ts';
