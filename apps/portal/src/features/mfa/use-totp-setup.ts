import type { MfaStatusResponse, RegisterTotpResponse } from '@keycard/contract/mfa';
import { type FormEvent, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { mfaApi } from './api.ts';
import { isCompleteCode } from './code-format.ts';
import { analyticsProps, useFinishMfa } from './flow.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';
import { useCodeCheck } from './use-code-check.ts';

/**
 * SPEC §2 authenticator-app registration in four steps: the app to download, the key to
 * scan (asked of the server when leaving step 1), the first code to confirm it, and the
 * recovery codes; then the device is trusted if asked and the sign-in goes on.
 */
export function useTotpSetup(status: MfaStatusResponse) {
  const finish = useFinishMfa(status);
  const [step, setStep] = useState(1);
  const [registration, setRegistration] = useState<RegisterTotpResponse | null>(null);
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  // Unticked until the person ticks it, as in every flow (issue 19 item 15).
  const [trust, setTrust] = useState(false);
  const [starting, setStarting] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const entry = useCodeCheck({
    status,
    onSignedOut: () => void finish(false),
    clearProblem: () => setProblem(null),
  });

  async function start() {
    setStarting(true);
    setProblem(null);
    try {
      setRegistration(await mfaApi.registerTotp());
      setStep(2);
    } catch (caught) {
      setProblem(describeMfaError(caught));
    } finally {
      setStarting(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!isCompleteCode(entry.value)) {
      entry.reject('mfa.errors.codeFormat');
      return;
    }
    const code = entry.value;
    const answer = await entry.check(() => mfaApi.verify({ code, deliveryType: 'totp' }), 'totp');
    entry.settle();
    if (!answer) return;
    void trackEvent('mfa_register', analyticsProps(status, 'totp'));
    setRecoveryCodes(answer.recoveryCodes ?? []);
    setStep(4);
  }

  return {
    step,
    setStep,
    registration,
    problem,
    trust,
    setTrust,
    entry,
    pending: starting || entry.pending,
    recoveryCodes,
    start,
    confirm,
    finish: () => void finish(trust),
  };
}
