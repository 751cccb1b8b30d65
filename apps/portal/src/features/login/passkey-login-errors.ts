import { errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { type ErrorTable, lookupError } from '../../lib/api.ts';
import { type CeremonyFailure, PasskeyCeremonyError } from '../../lib/webauthn.ts';
import type { PasskeyLoginError } from './passkey-login-texts.ts';

/**
 * The server's refusals of a passkey sign-in (docs/passkeys.md). One code says a stored passkey
 * did not verify, whatever the reason (a forger learns nothing); a passkey the domain does not
 * hold (removed, or never made here) says so, as the authenticator is told to forget it; a
 * spent or expired challenge asks for a new try; a limit asks to wait. A setting turned off
 * meanwhile reads as a failure too.
 */
export const passkeyLoginErrors: ErrorTable<PasskeyLoginError> = {
  network: 'network',
  codes: {
    [passkeyErrors.verificationFailed]: 'failed',
    [passkeyErrors.unknownCredential]: 'removed',
    [passkeyErrors.challengeInvalid]: 'expired',
    [passkeyErrors.rateLimited]: 'rateLimited',
    [errorCodes.tooManyAttempts]: 'rateLimited',
    [passkeyErrors.notOffered]: 'failed',
  },
  otherwise: 'failed',
};

/** What the browser's ceremony ending without a passkey says; null: the page cancelled it. */
const ceremonyRows: Record<CeremonyFailure, PasskeyLoginError | null> = {
  aborted: null,
  cancelled: 'cancelled',
  unsupported: 'unsupported',
  network: 'network',
  exists: 'failed',
  failed: 'failed',
};

/**
 * A failed passkey sign-in: the ceremony's reason or the server's code. `quiet` (the autofill
 * request, which the person did not start by a click): only the server's refusals are shown.
 */
export function passkeyLoginFailure(caught: unknown, quiet = false): PasskeyLoginError | null {
  if (caught instanceof PasskeyCeremonyError) return quiet ? null : ceremonyRows[caught.reason];
  return lookupError(passkeyLoginErrors, caught);
}
