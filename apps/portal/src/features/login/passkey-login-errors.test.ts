import { errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isEnglishText } from '../../lib/texts.test-support.ts';
import { PasskeyCeremonyError } from '../../lib/webauthn.ts';
import { passkeyLoginErrors, passkeyLoginFailure } from './passkey-login-errors.ts';
import { passkeyLoginErrorTexts } from './passkey-login-texts.ts';

const refused = (code: string) => new ApiRequestError('answer', { code });

describe('passkey sign-in errors', () => {
  it("says a passkey that did not verify failed, whatever the server's reason", () => {
    expect(passkeyLoginFailure(refused(passkeyErrors.verificationFailed))).toBe('failed');
    expect(passkeyLoginFailure(refused(passkeyErrors.notOffered))).toBe('failed');
    expect(passkeyLoginFailure(refused(errorCodes.internal))).toBe('failed');
  });

  it('says a passkey the domain does not hold may have been removed', () => {
    expect(passkeyLoginFailure(refused(passkeyErrors.unknownCredential))).toBe('removed');
  });

  it('asks to try again after a spent challenge, and to wait after a limit', () => {
    expect(passkeyLoginFailure(refused(passkeyErrors.challengeInvalid))).toBe('expired');
    expect(passkeyLoginFailure(refused(passkeyErrors.rateLimited))).toBe('rateLimited');
    expect(passkeyLoginFailure(refused(errorCodes.tooManyAttempts))).toBe('rateLimited');
    expect(passkeyLoginFailure(new ApiRequestError('network'))).toBe('network');
  });

  it("reads the browser's ceremony: a cancelled dialog, no WebAuthn, and says nothing when the page cancelled it", () => {
    expect(passkeyLoginFailure(new PasskeyCeremonyError('cancelled'))).toBe('cancelled');
    expect(passkeyLoginFailure(new PasskeyCeremonyError('unsupported'))).toBe('unsupported');
    expect(passkeyLoginFailure(new PasskeyCeremonyError('network'))).toBe('network');
    expect(passkeyLoginFailure(new PasskeyCeremonyError('failed'))).toBe('failed');
    expect(passkeyLoginFailure(new PasskeyCeremonyError('aborted'))).toBeNull();
  });

  it('has an English text for every notice', () => {
    const rows = [
      passkeyLoginErrors.network,
      passkeyLoginErrors.otherwise,
      ...Object.values(passkeyLoginErrors.codes),
    ];
    for (const row of rows) expect(isEnglishText(passkeyLoginErrorTexts[row]), row).toBe(true);
    for (const text of Object.values(passkeyLoginErrorTexts)) expect(isEnglishText(text), text).toBe(true);
  });
});
