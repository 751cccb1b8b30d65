import type { MfaDeliveryType, MfaStatusResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { mfaApi } from './api.ts';
import { enteredProof } from './code-format.ts';
import { analyticsProps, useFinishMfa } from './flow.ts';
import type { MfaProblem } from './mfa-errors.ts';
import { useCodeCheck } from './use-code-check.ts';
import { useCodeSending } from './use-code-sending.ts';
import { useDeliveryWatch } from './use-delivery-watch.ts';

/**
 * SPEC §2 'Enter code at login': the state and actions of the verify screen. A phone factor
 * gets its code sent on arrival (and again on request, by SMS or voice); the code or a
 * recovery code is checked, and on success the device is trusted if asked and the sign-in goes on.
 */
export function useMfaVerification(status: MfaStatusResponse) {
  const finish = useFinishMfa(status);
  const factor = status.factor!;
  const isPhone = factor.deliveryType !== 'totp';
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [channel, setChannel] = useState<PhoneDeliveryType>(
    factor.deliveryType === 'voice' ? 'voice' : 'sms',
  );
  // Unticked: a shared front-desk PC must not become trusted unless someone chooses so.
  const [trust, setTrust] = useState(false);
  const [resent, setResent] = useState(false);
  // Says "we sent …" only once a code really went out (or went out moments ago).
  const [codeSent, setCodeSent] = useState(false);
  const sending = useCodeSending(setProblem);
  const entry = useCodeCheck({
    status,
    onSignedOut: () => void finish(false),
    clearProblem: () => setProblem(null),
  });
  const delivery = useDeliveryWatch(setProblem);
  const started = useRef(false);

  async function send(next: PhoneDeliveryType, first: boolean) {
    setResent(false);
    const answer = await sending.send(() => mfaApi.sendPhoneCode(next));
    if (answer === 'onItsWay') setCodeSent(true);
    if (answer === null || answer === 'onItsWay') return;
    setChannel(answer.deliveryType);
    setCodeSent(true);
    if (answer.deliveryType === 'voice') delivery.watch();
    if (!first) setResent(true);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen, on arrival
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void trackEvent('mfa_verification_required', analyticsProps(status, factor.deliveryType));
    if (isPhone) void send(channel, true);
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const entered = enteredProof(mode, entry.value);
    if (entered === null) {
      entry.reject(mode === 'code' ? 'mfa.errors.codeFormat' : 'mfa.errors.recoveryFormat');
      return;
    }
    const deliveryType: MfaDeliveryType = isPhone ? channel : 'totp';
    const answer = await entry.check(
      () => mfaApi.verify(mode === 'code' ? { code: entered, deliveryType } : { recoveryCode: entered }),
      deliveryType,
    );
    if (!answer) return;
    delivery.stop();
    void trackEvent('mfa_success', analyticsProps(status, deliveryType));
    await finish(trust);
  }

  return {
    factor,
    isPhone,
    mode,
    switchMode: () => {
      setMode(mode === 'code' ? 'recovery' : 'code');
      entry.reset();
    },
    channel,
    codeSent,
    resent,
    problem: entry.lockNotice ?? problem,
    trust,
    setTrust,
    entry,
    pending: sending.pending || entry.pending,
    seconds: sending.seconds,
    resend: (next: PhoneDeliveryType) => void send(next, false),
    submit,
  };
}
