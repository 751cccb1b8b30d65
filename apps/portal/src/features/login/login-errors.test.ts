import { errorCodes, lifecycleErrors } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isEnglishText } from '../../lib/texts.test-support.ts';
import { loginErrors, loginErrorTexts, loginFailure } from './login-errors.ts';

const now = 1_000_000;
const refused = (code: string, fields?: Record<string, string>) =>
  new ApiRequestError('answer', { code, fields });

describe('login errors', () => {
  it('keeps a network limit on the password step, counting down to when a retry may pass', () => {
    const caught = refused(errorCodes.tooManyAttempts, { limit: 'address', retryAfterSeconds: '840' });
    expect(loginFailure(caught, 'ana@example.com', now)).toEqual({
      kind: 'limited',
      limit: 'address',
      until: now + 840_000,
    });
  });

  it("sends an account's lockout to the account-disabled page with its wait and the address", () => {
    const caught = refused(errorCodes.tooManyAttempts, { limit: 'account', retryAfterSeconds: '60' });
    expect(loginFailure(caught, 'ana@example.com', now)).toEqual({
      kind: 'leave',
      to: paths.accountDisabled,
      state: { lockedUntil: now + 60_000, email: 'ana@example.com' },
    });
  });

  it('carries the attempts left before the lockout on a wrong password, and ignores a malformed count', () => {
    expect(
      loginFailure(refused(errorCodes.invalidCredentials, { attemptsLeft: '2' }), 'a@b.co', now),
    ).toEqual({
      kind: 'notice',
      error: 'invalid',
      attemptsLeft: 2,
    });
    for (const attemptsLeft of ['0', 'x', '1.5']) {
      expect(loginFailure(refused(errorCodes.invalidCredentials, { attemptsLeft }), 'a@b.co', now)).toEqual({
        kind: 'notice',
        error: 'invalid',
      });
    }
  });

  it('sends a limit that names no wait, and a leaked password, to the account-disabled page', () => {
    expect(loginFailure(refused(errorCodes.tooManyAttempts), 'a@b.co', now)).toEqual({
      kind: 'leave',
      to: paths.accountDisabled,
    });
    expect(loginFailure(refused(errorCodes.passwordLeaked), 'a@b.co', now)).toEqual({
      kind: 'leave',
      to: paths.accountDisabled,
    });
  });

  it('says a full password check is busy, no answer is a network problem, anything else wrong credentials', () => {
    expect(loginFailure(refused(errorCodes.busy), 'a@b.co', now)).toEqual({ kind: 'notice', error: 'busy' });
    expect(loginFailure(new ApiRequestError('network'), 'a@b.co', now)).toEqual({
      kind: 'notice',
      error: 'network',
    });
    expect(loginFailure(refused(errorCodes.invalidCredentials), 'a@b.co', now)).toEqual({
      kind: 'notice',
      error: 'invalid',
    });
    // A lifecycle code (never answered by the login) and an unknown one say no more than that.
    expect(loginFailure(refused(lifecycleErrors.passwordLeaked), 'a@b.co', now)).toEqual({
      kind: 'notice',
      error: 'invalid',
    });
    expect(loginFailure(refused('login.new_code'), 'a@b.co', now)).toEqual({
      kind: 'notice',
      error: 'invalid',
    });
  });

  it('has an English text for every notice the table can show', () => {
    const rows = [loginErrors.network, loginErrors.otherwise, ...Object.values(loginErrors.codes)];
    const notices = rows.filter((row): row is keyof typeof loginErrorTexts => row in loginErrorTexts);
    expect(new Set(notices)).toEqual(new Set(['network', 'invalid', 'busy']));
    for (const notice of notices) expect(isEnglishText(loginErrorTexts[notice]), notice).toBe(true);
  });
});
