import { errorCodes, mfaErrors, mobileErrors, passkeyErrors } from '@keycard/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isEnglishText } from '../../lib/texts.test-support.ts';
import { PasskeyCeremonyError } from '../../lib/webauthn.ts';
import { describeMfaError, describePasskeyFailure, mfaErrorTable } from './mfa-errors.ts';

const refused = (code: string, fields?: Record<string, string>) =>
  new ApiRequestError('answer', { code, fields });

describe('MFA error table', () => {
  it('has a row for every MFA, mobile-app and passkey code, each with an English text', () => {
    for (const code of [
      ...Object.values(mfaErrors),
      ...Object.values(mobileErrors),
      ...Object.values(passkeyErrors),
    ]) {
      expect(mfaErrorTable.codes[code], code).toBeDefined();
    }
    const rows = [mfaErrorTable.network, mfaErrorTable.otherwise, ...Object.values(mfaErrorTable.codes)];
    for (const row of rows) {
      expect(isEnglishText(row.key), row.key).toBe(true);
      if (row.keyWithoutWait) expect(isEnglishText(row.keyWithoutWait), row.keyWithoutWait).toBe(true);
    }
  });

  it('marks a wrong, expired or spent code, and nothing else, as a wrong code', () => {
    const wrong = Object.values(mfaErrors).filter((code) => describeMfaError(refused(code)).wrongCode);
    expect(new Set(wrong)).toEqual(
      new Set([mfaErrors.codeInvalid, mfaErrors.codeExpired, mfaErrors.attemptsExceeded]),
    );
  });

  it('locks checks on too many wrong codes, with the wait in words when it names one', () => {
    expect(describeMfaError(refused(mfaErrors.rateLimited, { retryAfterSeconds: '300' }))).toEqual({
      key: 'mfa.errors.rateLimited',
      retryAfterSeconds: 300,
      locksChecks: true,
    });
    expect(describeMfaError(refused(mfaErrors.rateLimited))).toEqual({
      key: 'mfa.errors.rateLimitedLater',
      locksChecks: true,
    });
  });

  it('waits for a code sent moments ago instead of sending another', () => {
    expect(describeMfaError(refused(mfaErrors.resendTooSoon, { retryAfterSeconds: '20' }))).toMatchObject({
      codeOnItsWay: true,
      retryAfterSeconds: 20,
    });
  });

  it("pauses the partner app's requests on its back-off", () => {
    expect(describeMfaError(refused(mobileErrors.rateLimited, { retryAfterSeconds: '60' }))).toEqual({
      key: 'mfa.mobile.errors.rateLimited',
      retryAfterSeconds: 60,
      pausesApprovals: true,
    });
  });

  it('puts a phone problem on its field and keeps the provider code', () => {
    expect(
      describeMfaError(refused(mfaErrors.phoneInvalid, { phoneNumber: 'This number is invalid' })),
    ).toEqual({
      key: 'mfa.errors.phoneInvalid',
      field: 'phoneNumber',
    });
    expect(describeMfaError(refused(mfaErrors.lineBusy, { providerCode: '107' }))).toEqual({
      key: 'mfa.errors.lineBusy',
      providerCode: '107',
    });
  });

  it('starts again when the session is gone; says a network problem; anything else is unknown', () => {
    expect(describeMfaError(refused(errorCodes.sessionRequired))).toEqual({
      key: 'mfa.errors.unknown',
      signedOut: true,
    });
    expect(describeMfaError(new ApiRequestError('network'))).toEqual({ key: 'common.networkError' });
    expect(describeMfaError(refused(errorCodes.internal))).toEqual({ key: 'mfa.errors.unknown' });
    expect(describeMfaError(new Error('boom'))).toEqual({ key: 'mfa.errors.unknown' });
  });

  it('reads a passkey or security key that did not pass: a wrong key, a cancelled dialog, and nothing when cancelled by the page', () => {
    expect(describePasskeyFailure(refused(passkeyErrors.verificationFailed))).toEqual({
      key: 'passkeys.errors.failed',
      wrongCode: true,
    });
    expect(describePasskeyFailure(refused(passkeyErrors.challengeInvalid))).toEqual({
      key: 'passkeys.errors.expired',
    });
    expect(describePasskeyFailure(new PasskeyCeremonyError('cancelled'))).toEqual({
      key: 'passkeys.errors.cancelled',
    });
    expect(describePasskeyFailure(new PasskeyCeremonyError('aborted'))).toBeNull();
    expect(describePasskeyFailure(refused(errorCodes.sessionRequired))).toMatchObject({ signedOut: true });
  });
});
