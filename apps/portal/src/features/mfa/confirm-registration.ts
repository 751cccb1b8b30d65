import type { MfaProof, MfaStatusResponse } from '@keycard/contract/mfa';
import { trackEvent } from '../../lib/analytics.ts';
import { mfaApi } from './api.ts';
import { analyticsProps } from './flow.ts';
import { describeMfaError, type MfaProblem, wrongCodeErrors } from './mfa-errors.ts';

export type RegistrationOutcome =
  | { kind: 'registered'; recoveryCodes: string[] }
  | { kind: 'signedOut' }
  | { kind: 'failed'; problem: MfaProblem };

/**
 * Confirms a new factor with its first code (the last registration step of the app and the
 * phone alike) and reports mfa_register or, for a wrong code, mfa_failed — once each.
 */
export async function confirmRegistration(
  status: MfaStatusResponse,
  code: string,
  deliveryType: Extract<MfaProof, { code: string }>['deliveryType'],
): Promise<RegistrationOutcome> {
  try {
    const answer = await mfaApi.verify({ code, deliveryType });
    void trackEvent('mfa_register', analyticsProps(status, deliveryType));
    return { kind: 'registered', recoveryCodes: answer.recoveryCodes ?? [] };
  } catch (caught) {
    const problem = describeMfaError(caught);
    if (problem.signedOut) return { kind: 'signedOut' };
    if (wrongCodeErrors.has((caught as { code?: string }).code ?? '')) {
      void trackEvent('mfa_failed', analyticsProps(status, deliveryType));
    }
    return { kind: 'failed', problem };
  }
}
