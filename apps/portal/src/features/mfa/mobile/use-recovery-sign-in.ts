import type { MfaStatusResponse } from '@keycard/contract/mfa';
import type { FormEvent } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { mfaApi } from '../api.ts';
import { enteredProof } from '../code-format.ts';
import { analyticsProps, useFinishMfa } from '../flow.ts';
import { useCodeCheck } from '../use-code-check.ts';

/**
 * Signing in with a recovery code instead of the phone (POST /api/mfa/verify, as for any
 * factor): the entry and its check; on success the device is trusted if asked.
 */
export function useRecoveryCodeSignIn(status: MfaStatusResponse, trust: boolean) {
  const finish = useFinishMfa(status, 'smmobile');
  const entry = useCodeCheck({ status, onSignedOut: () => void finish(false) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const entered = enteredProof('recovery', entry.value);
    if (entered === null) {
      entry.reject('mfa.errors.recoveryFormat');
      return;
    }
    const answer = await entry.check(() => mfaApi.verify({ recoveryCode: entered }), 'smmobile');
    if (!answer) return;
    void trackEvent('mfa_success', analyticsProps(status, 'smmobile'));
    await finish(trust);
  }

  return { entry, submit };
}
