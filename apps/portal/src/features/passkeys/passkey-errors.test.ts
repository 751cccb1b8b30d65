import { accountErrors, errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isEnglishText } from '../../lib/texts.test-support.ts';
import { PasskeyCeremonyError } from '../../lib/webauthn.ts';
import { passkeyErrorTable, passkeyProblem, passkeyProblemTexts } from './passkey-errors.ts';

const refused = (code: string) => new ApiRequestError('answer', { code });

describe('passkey offer and step-up errors', () => {
  it('has an English text for every problem the table and the ceremony can give', () => {
    for (const text of Object.values(passkeyProblemTexts)) expect(isEnglishText(text), text).toBe(true);
    const rows = [
      passkeyErrorTable.network,
      passkeyErrorTable.otherwise,
      ...Object.values(passkeyErrorTable.codes),
    ];
    for (const row of rows) expect(passkeyProblemTexts[row], row).toBeDefined();
  });

  it('reads each refusal of making or using a passkey by its code', () => {
    expect(passkeyProblem(refused(passkeyErrors.alreadyRegistered))).toBe('exists');
    expect(passkeyProblem(refused(passkeyErrors.limitReached))).toBe('limit');
    expect(passkeyProblem(refused(passkeyErrors.verificationFailed))).toBe('failed');
    expect(passkeyProblem(refused(passkeyErrors.challengeInvalid))).toBe('expired');
    expect(passkeyProblem(refused(passkeyErrors.notFound))).toBe('notFound');
    expect(passkeyProblem(refused(passkeyErrors.rateLimited))).toBe('rateLimited');
    // Too long since the sign-in to add one: the offer lets the person go on.
    expect(passkeyProblem(refused(accountErrors.recentSignInRequired))).toBe('signInAgain');
    expect(passkeyProblem(refused(errorCodes.sessionIncomplete))).toBe('signInAgain');
    expect(passkeyProblem(new ApiRequestError('network'))).toBe('network');
    expect(passkeyProblem(refused(errorCodes.internal))).toBe('unknown');
  });

  it("reads the browser's ceremony, and says nothing when the page cancelled it", () => {
    expect(passkeyProblem(new PasskeyCeremonyError('cancelled'))).toBe('cancelled');
    expect(passkeyProblem(new PasskeyCeremonyError('exists'))).toBe('exists');
    expect(passkeyProblem(new PasskeyCeremonyError('unsupported'))).toBe('unsupported');
    expect(passkeyProblem(new PasskeyCeremonyError('aborted'))).toBeNull();
  });
});
