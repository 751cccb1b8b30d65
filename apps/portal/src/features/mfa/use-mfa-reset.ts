import type { MfaProof, MfaResetResponse, MfaStatusResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { mfaFlowKeys } from '../../lib/mfa-flow.ts';
import { flowStorage } from '../../lib/storage.ts';
import { mfaApi } from './api.ts';
import { enteredProof } from './code-format.ts';
import { analyticsProps } from './flow.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';
import { useCodeCheck } from './use-code-check.ts';
import { useCodeSending } from './use-code-sending.ts';

/** The reset's flow values are spent once it is done. */
function forgetResetRequest() {
  flowStorage.remove(mfaFlowKeys.resetRedirectUri);
  flowStorage.remove(mfaFlowKeys.purpose);
}

/**
 * /mfa/reset (SPEC §2 'Reset MFA'): reads the MFA status, then takes the proof of possession —
 * a code of the enrolled method (a phone's sent on request), or a recovery code; the partner
 * app's approval is its own screen — and resets. The server removes the methods, recovery
 * codes and trusted devices and answers the mfaResetRedirectUri when it is registered.
 */
export function useMfaReset() {
  const navigate = useNavigate();
  const [status, setStatus] = useState<MfaStatusResponse | null>(null);
  const [done, setDone] = useState<MfaResetResponse | null>(null);
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sending = useCodeSending(setProblem);
  const entry = useCodeCheck({
    status,
    onSignedOut: () => navigate(paths.root, { replace: true }),
    clearProblem: () => setProblem(null),
  });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mfaApi
      .status()
      .then(setStatus)
      .catch((caught: unknown) =>
        navigate(describeMfaError(caught).signedOut ? paths.root : paths.error, { replace: true }),
      );
  }, [navigate]);

  const factor = status?.factor ?? null;

  async function sendCode() {
    if (!factor) return;
    const channel: PhoneDeliveryType = factor.deliveryType === 'voice' ? 'voice' : 'sms';
    const answer = await sending.send(() => mfaApi.sendPhoneCode(channel));
    if (answer === null || answer === 'onItsWay') return;
    setSentTo(answer.phone);
    entry.inputRef.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!factor || !status) return;
    const entered = enteredProof(mode, entry.value);
    if (entered === null) {
      entry.reject(mode === 'code' ? 'mfa.errors.codeFormat' : 'mfa.errors.recoveryFormat');
      return;
    }
    const codeType = factor.deliveryType;
    const proof: MfaProof =
      mode === 'code' && codeType !== 'smmobile'
        ? { code: entered, deliveryType: codeType }
        : { recoveryCode: entered };
    const answer = await entry.check(
      () => mfaApi.reset(proof, flowStorage.get(mfaFlowKeys.resetRedirectUri) ?? undefined),
      codeType,
    );
    entry.settle();
    if (!answer) return;
    void trackEvent('mfa_reset', analyticsProps(status, codeType));
    forgetResetRequest();
    setDone(answer);
  }

  return {
    status,
    factor,
    done,
    mode,
    switchMode: () => {
      setMode(mode === 'code' ? 'recovery' : 'code');
      entry.reset();
    },
    useRecovery: () => {
      setMode('recovery');
      entry.reset();
    },
    /** The partner app approved the reset (its own screen). */
    approved: (answer: MfaResetResponse) => {
      forgetResetRequest();
      setDone(answer);
    },
    problem: entry.lockNotice ?? problem,
    sentTo,
    entry,
    pending: sending.pending || entry.pending,
    seconds: sending.seconds,
    sendCode,
    submit,
  };
}
