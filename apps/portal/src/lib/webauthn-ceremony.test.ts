import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';
import { ceremonyFailure } from './webauthn-ceremony.ts';
import { PasskeyCeremonyError } from './webauthn-error.ts';

const domError = (name: string) => Object.assign(new Error(name), { name });
const libraryError = (code: ConstructorParameters<typeof WebAuthnError>[0]['code'], cause: Error) =>
  new WebAuthnError({ message: code, code, cause });

describe("the browser's WebAuthn refusals, as a screen reads them", () => {
  it('a closed or timed-out dialog (NotAllowedError) is cancelled, by the browser or through the library', () => {
    expect(ceremonyFailure(domError('NotAllowedError'))).toBe('cancelled');
    expect(
      ceremonyFailure(libraryError('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', domError('NotAllowedError'))),
    ).toBe('cancelled');
  });

  it('a ceremony cancelled by the page (or a newer one) is aborted: nothing to say', () => {
    expect(ceremonyFailure(libraryError('ERROR_CEREMONY_ABORTED', domError('AbortError')))).toBe('aborted');
    expect(ceremonyFailure(domError('AbortError'))).toBe('aborted');
  });

  it('an authenticator that holds a passkey for the account already (excludeCredentials)', () => {
    expect(
      ceremonyFailure(
        libraryError('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', domError('InvalidStateError')),
      ),
    ).toBe('exists');
  });

  it('an authenticator or browser that cannot do it, and anything else', () => {
    expect(
      ceremonyFailure(
        libraryError('ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT', domError('ConstraintError')),
      ),
    ).toBe('unsupported');
    expect(ceremonyFailure(new Error('WebAuthn is not supported in this browser'))).toBe('unsupported');
    expect(ceremonyFailure(libraryError('ERROR_INVALID_RP_ID', domError('SecurityError')))).toBe('failed');
    expect(ceremonyFailure(new PasskeyCeremonyError('network'))).toBe('network');
  });
});
