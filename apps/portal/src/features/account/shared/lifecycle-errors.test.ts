import { errorCodes, lifecycleErrors } from '@keycard/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiRequestError, type ErrorTable } from '../../../lib/api.ts';
import { isEnglishText } from '../../../lib/texts.test-support.ts';
import {
  activationErrors,
  formOutcome,
  type LifecycleOutcome,
  lifecycleOutcome,
  mailRequestErrors,
  registrationErrors,
  resetErrors,
  verificationMailErrors,
  verifyEmailErrors,
} from './lifecycle-errors.ts';

const refused = (code: string, fields?: Record<string, string>) =>
  new ApiRequestError('answer', { code, fields });
const network = new ApiRequestError('network');

const tables = {
  activationErrors,
  registrationErrors,
  resetErrors,
  verifyEmailErrors,
  mailRequestErrors,
  verificationMailErrors,
};

describe('lifecycle error tables', () => {
  it.each(Object.entries(tables))('%s: every text it shows is an English text', (_, table) => {
    const rows = [
      table.network,
      table.otherwise,
      ...Object.values((table as ErrorTable<LifecycleOutcome>).codes),
    ];
    for (const row of rows) {
      if ('key' in row) expect(isEnglishText(row.key), row.key).toBe(true);
      if ('waitKey' in row && typeof row.waitKey === 'string')
        expect(isEnglishText(row.waitKey), row.waitKey).toBe(true);
    }
  });

  it("ends each flow's own dead links on its page, and only its own", () => {
    expect(lifecycleOutcome(activationErrors, refused(lifecycleErrors.activateTokenInvalid)).kind).toBe(
      'deadLink',
    );
    expect(lifecycleOutcome(activationErrors, refused(lifecycleErrors.activateTokenExpired)).kind).toBe(
      'deadLink',
    );
    expect(lifecycleOutcome(activationErrors, refused(lifecycleErrors.resetTokenExpired)).kind).toBe(
      'unexpected',
    );
    expect(lifecycleOutcome(registrationErrors, refused(lifecycleErrors.registerTokenInvalid)).kind).toBe(
      'deadLink',
    );
    expect(lifecycleOutcome(registrationErrors, refused(lifecycleErrors.registerAccountExists)).kind).toBe(
      'deadLink',
    );
    expect(lifecycleOutcome(resetErrors, refused(lifecycleErrors.resetTokenNotFound)).kind).toBe('deadLink');
    expect(lifecycleOutcome(resetErrors, refused(lifecycleErrors.resetTokenExpired)).kind).toBe('deadLink');
    expect(lifecycleOutcome(resetErrors, refused(lifecycleErrors.activateTokenInvalid)).kind).toBe(
      'unexpected',
    );
    expect(lifecycleOutcome(verifyEmailErrors, refused(lifecycleErrors.verifyTokenInvalid)).kind).toBe(
      'deadLink',
    );
    expect(lifecycleOutcome(verifyEmailErrors, refused(lifecycleErrors.verifyTokenExpired)).kind).toBe(
      'deadLink',
    );
  });

  it('shows a reused or leaked new password on the field, the captcha as a notice', () => {
    expect(lifecycleOutcome(resetErrors, refused(lifecycleErrors.passwordHistory))).toEqual({
      kind: 'password',
      key: 'lifecycle.passwordForm.errors.history',
    });
    expect(lifecycleOutcome(activationErrors, refused(lifecycleErrors.passwordLeaked))).toEqual({
      kind: 'password',
      key: 'lifecycle.passwordForm.errors.leaked',
    });
    expect(lifecycleOutcome(registrationErrors, refused(lifecycleErrors.captchaFailed))).toEqual({
      kind: 'notice',
      key: 'lifecycle.errors.captcha',
    });
    // Asking for a mail has no password: those codes are unexpected there.
    expect(lifecycleOutcome(mailRequestErrors, refused(lifecycleErrors.passwordHistory)).kind).toBe(
      'unexpected',
    );
  });

  it('says whose rate limit it is, with the wait it names', () => {
    expect(
      lifecycleOutcome(mailRequestErrors, refused(errorCodes.rateLimited, { retryAfterSeconds: '120' })),
    ).toEqual({
      kind: 'notice',
      key: 'lifecycle.errors.rateLimited',
      wait: { key: 'lifecycle.errors.rateLimitedNetwork', seconds: 120 },
    });
    expect(
      lifecycleOutcome(verificationMailErrors, refused(errorCodes.rateLimited, { retryAfterSeconds: '30' })),
    ).toEqual({
      kind: 'notice',
      key: 'lifecycle.errors.rateLimited',
      wait: { key: 'lifecycle.errors.rateLimitedVerification', seconds: 30 },
    });
    expect(lifecycleOutcome(mailRequestErrors, refused(errorCodes.rateLimited))).toEqual({
      kind: 'notice',
      key: 'lifecycle.errors.rateLimited',
    });
  });

  it('says a missing answer is a network problem, an e-mail mismatch on the address', () => {
    for (const table of Object.values(tables)) {
      expect(lifecycleOutcome(table, network)).toEqual({ kind: 'notice', key: 'common.networkError' });
    }
    expect(lifecycleOutcome(verifyEmailErrors, refused(lifecycleErrors.verifyEmailInvalid))).toEqual({
      kind: 'address',
      key: 'lifecycle.verifyEmail.mismatch',
    });
  });

  it('gives a password form what it shows and leaves the rest to the flow', () => {
    const acted: LifecycleOutcome[] = [];
    const act = (outcome: LifecycleOutcome) => acted.push(outcome);
    expect(formOutcome({ kind: 'password', key: 'lifecycle.passwordForm.errors.leaked' }, act)).toEqual({
      refuse: 'lifecycle.passwordForm.errors.leaked',
    });
    expect(formOutcome({ kind: 'notice', key: 'lifecycle.errors.captcha' }, act)).toEqual({
      notice: 'lifecycle.errors.captcha',
    });
    expect(acted).toEqual([]);
    expect(formOutcome({ kind: 'deadLink' }, act)).toBeNull();
    expect(formOutcome({ kind: 'unexpected' }, act)).toBeNull();
    expect(acted).toEqual([{ kind: 'deadLink' }, { kind: 'unexpected' }]);
  });
});
