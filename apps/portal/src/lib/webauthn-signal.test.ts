import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  accountPasskeySignals,
  removedPasskeySignal,
  signalAccountPasskeys,
  signalUnknownCredential,
} from './webauthn-signal.ts';

const rpId = 'grand-hotel.localhost';
const here = (credentialId: string) => ({ credentialId, rpId, usableHere: true });
const alias = (credentialId: string) => ({ credentialId, rpId: 'localhost', usableHere: false });

/** A browser whose PublicKeyCredential has these static methods (and records their calls). */
function browserWith(methods: Record<string, (options: unknown) => unknown>) {
  const credentialClass = Object.assign(() => undefined, methods);
  vi.stubGlobal('window', { PublicKeyCredential: credentialClass });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('what the account page tells authenticators', () => {
  it("lists every one of the account's credential ids for this relying party, and none of another", () => {
    const signals = accountPasskeySignals(
      { passkeys: [here('a1'), alias('b2'), here('c3')], userHandle: 'handle-1' },
      'ana@grand-hotel.test',
      rpId,
    );
    expect(signals).toEqual({
      allAccepted: { rpId, userId: 'handle-1', allAcceptedCredentialIds: ['a1', 'c3'] },
      currentUser: {
        rpId,
        userId: 'handle-1',
        name: 'ana@grand-hotel.test',
        displayName: 'ana@grand-hotel.test',
      },
    });
  });

  it('an account whose last passkey here is gone lists none: its authenticators drop them', () => {
    expect(
      accountPasskeySignals({ passkeys: [alias('b2')], userHandle: 'handle-1' }, 'ana@x.test', rpId)
        ?.allAccepted,
    ).toEqual({ rpId, userId: 'handle-1', allAcceptedCredentialIds: [] });
  });

  it('says nothing without a user handle (no passkey was ever made)', () => {
    expect(accountPasskeySignals({ passkeys: [], userHandle: null }, 'ana@x.test', rpId)).toBeNull();
  });

  it('says nothing when the server and the page disagree about the relying party: the list could be short', () => {
    // The server took another host for this page: its passkeys here read as not usable here.
    const misread = { credentialId: 'a1', rpId, usableHere: false };
    expect(accountPasskeySignals({ passkeys: [misread], userHandle: 'h' }, 'ana@x.test', rpId)).toBeNull();
    const otherWay = { credentialId: 'b2', rpId: 'localhost', usableHere: true };
    expect(accountPasskeySignals({ passkeys: [otherWay], userHandle: 'h' }, 'ana@x.test', rpId)).toBeNull();
  });

  it('a removed passkey is named only when it was made for this relying party', () => {
    expect(removedPasskeySignal(here('a1'), rpId)).toEqual({ rpId, credentialId: 'a1' });
    expect(removedPasskeySignal(alias('b2'), rpId)).toBeNull();
    expect(removedPasskeySignal({ credentialId: 'a1', rpId, usableHere: false }, rpId)).toBeNull();
  });
});

describe('sending the signals', () => {
  it('calls nothing where the browser has no Signal API, or no WebAuthn at all', () => {
    expect(signalUnknownCredential({ rpId, credentialId: 'a1' })).toBe(false);
    browserWith({});
    expect(signalUnknownCredential({ rpId, credentialId: 'a1' })).toBe(false);
    const signals = accountPasskeySignals({ passkeys: [here('a1')], userHandle: 'h' }, 'a@x.test', rpId);
    expect(signalAccountPasskeys(signals)).toBe(false);
  });

  it('calls each method on PublicKeyCredential with its options', () => {
    const unknown = vi.fn(async () => undefined);
    const allAccepted = vi.fn(async () => undefined);
    const details = vi.fn(async () => undefined);
    browserWith({
      signalUnknownCredential: unknown,
      signalAllAcceptedCredentials: allAccepted,
      signalCurrentUserDetails: details,
    });
    expect(signalUnknownCredential({ rpId, credentialId: 'a1' })).toBe(true);
    expect(unknown).toHaveBeenCalledWith({ rpId, credentialId: 'a1' });
    const signals = accountPasskeySignals({ passkeys: [here('a1')], userHandle: 'h' }, 'a@x.test', rpId);
    expect(signalAccountPasskeys(signals)).toBe(true);
    expect(allAccepted).toHaveBeenCalledWith({ rpId, userId: 'h', allAcceptedCredentialIds: ['a1'] });
    expect(details).toHaveBeenCalledWith({ rpId, userId: 'h', name: 'a@x.test', displayName: 'a@x.test' });
    // Nothing to say: no call.
    expect(signalUnknownCredential(null)).toBe(false);
    expect(signalAccountPasskeys(null)).toBe(false);
    expect(unknown).toHaveBeenCalledTimes(1);
  });

  it('swallows a refusal, thrown at once or rejected later', async () => {
    const rejected = vi.fn(() => Promise.reject(new DOMException('no', 'SecurityError')));
    const thrown = vi.fn(() => {
      throw new TypeError('bad base64url');
    });
    browserWith({ signalUnknownCredential: rejected, signalAllAcceptedCredentials: thrown });
    expect(signalUnknownCredential({ rpId, credentialId: 'a1' })).toBe(true);
    const signals = accountPasskeySignals({ passkeys: [], userHandle: 'h' }, 'a@x.test', rpId);
    expect(() => signalAccountPasskeys(signals)).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(rejected).toHaveBeenCalledTimes(1);
    expect(thrown).toHaveBeenCalledTimes(1);
  });
});
