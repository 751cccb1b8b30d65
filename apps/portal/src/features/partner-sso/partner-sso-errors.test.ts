import { errorCodes, partnerErrors } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { partnerSsoFailure } from './partner-sso-errors.ts';

const refused = (code: string) => new ApiRequestError('answer', { code });

describe('partner sign-in errors', () => {
  it('offers a retry only when no answer came', () => {
    expect(partnerSsoFailure(new ApiRequestError('network'))).toEqual({ kind: 'retry' });
    expect(partnerSsoFailure(refused(errorCodes.unavailable))).toEqual({ kind: 'leave', to: paths.error });
  });

  it('says an address the partner did not confirm on the page', () => {
    expect(partnerSsoFailure(refused(partnerErrors.emailUnverified))).toEqual({ kind: 'unverified' });
  });

  it('tells a forger nothing: every other refusal is the unknown-error page', () => {
    for (const code of Object.values(partnerErrors).filter(
      (code) => code !== partnerErrors.emailUnverified,
    )) {
      expect(partnerSsoFailure(refused(code)), code).toEqual({ kind: 'leave', to: paths.error });
    }
    expect(partnerSsoFailure(new Error('partner token missing'))).toEqual({ kind: 'leave', to: paths.error });
  });
});
