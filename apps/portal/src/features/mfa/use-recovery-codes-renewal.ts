import { useState } from 'react';
import { mfaApi } from './api.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';

/**
 * New recovery codes for an enrolled user who passed MFA moments ago (the old ones stop
 * working): the codes to show once made, or the problem by the MFA table.
 */
export function useRecoveryCodesRenewal() {
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  function renew(): void {
    mfaApi.recoveryCodes().then(
      (answer) => setCodes(answer.recoveryCodes),
      (caught: unknown) => setProblem(describeMfaError(caught)),
    );
  }
  return { codes, problem, renew };
}
