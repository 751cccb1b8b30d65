import { accountErrors, errorCodes, lifecycleErrors, passkeyErrors } from '@keycard/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isEnglishText } from '../../lib/texts.test-support.ts';
import { accountPageErrors, accountRefusal, reproofRefusal } from './account-page-errors.ts';

const refused = (code: string) => new ApiRequestError('answer', { code });

describe('account page error table', () => {
  it('has a row for every account-page and passkey code, each text in English', () => {
    for (const code of [...Object.values(accountErrors), ...Object.values(passkeyErrors)]) {
      // A step-up is the login's business; the page never asks for one.
      if (code === passkeyErrors.stepUpRequired) continue;
      expect(accountPageErrors.codes[code], code).toBeDefined();
    }
    const rows = [
      accountPageErrors.network,
      accountPageErrors.otherwise,
      ...Object.values(accountPageErrors.codes),
    ];
    for (const row of rows) {
      if ('key' in row) expect(isEnglishText(row.key), row.key).toBe(true);
    }
  });

  it('asks to confirm it is you when a change needs a recent sign-in, then nothing else does', () => {
    expect(accountRefusal(refused(accountErrors.recentSignInRequired))).toEqual({ kind: 'reprove' });
    const reproving = Object.entries(accountPageErrors.codes)
      .filter(([, row]) => row.kind === 'reprove')
      .map(([code]) => code);
    expect(new Set(reproving)).toEqual(
      new Set(['account.recent_sign_in_required', 'mfa.fresh_verification_required']),
    );
    // While confirming, the same answer cannot open the prompt again (no loop).
    expect(reproofRefusal(refused(accountErrors.recentSignInRequired)).kind).toBe('notice');
  });

  it('puts password refusals on their fields: the current one, or the new one (history, leak list)', () => {
    expect(accountRefusal(refused(accountErrors.currentPasswordInvalid))).toMatchObject({
      kind: 'field',
      field: 'currentPassword',
    });
    expect(accountRefusal(refused(lifecycleErrors.passwordHistory))).toMatchObject({
      kind: 'field',
      field: 'newPassword',
      key: 'lifecycle.passwordForm.errors.history',
    });
    expect(accountRefusal(refused(lifecycleErrors.passwordLeaked))).toMatchObject({
      kind: 'field',
      field: 'newPassword',
      key: 'lifecycle.passwordForm.errors.leaked',
    });
    // A wrong password in "confirm it's you" belongs to that form's own field.
    expect(reproofRefusal(refused(accountErrors.currentPasswordInvalid))).toMatchObject({
      kind: 'field',
      field: 'reproofPassword',
    });
  });

  it('sends an ended session to the login, and says when something was gone already', () => {
    expect(accountRefusal(refused(errorCodes.sessionRequired))).toEqual({ kind: 'signedOut' });
    expect(accountRefusal(refused(accountErrors.notFound)).kind).toBe('gone');
    expect(accountRefusal(refused(passkeyErrors.notFound)).kind).toBe('gone');
  });

  it('answers no answer and anything unknown with a notice', () => {
    expect(accountRefusal(new ApiRequestError('network'))).toEqual({
      kind: 'notice',
      key: 'account.errors.network',
    });
    expect(accountRefusal(refused('something.new'))).toEqual({
      kind: 'notice',
      key: 'account.errors.unknown',
    });
    expect(accountRefusal(new Error('thrown by a bug'))).toEqual({
      kind: 'notice',
      key: 'account.errors.unknown',
    });
  });
});
