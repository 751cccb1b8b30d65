import type { MfaDeliveryType, MfaStatusResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { useBranding } from '../../lib/branding.tsx';
import { passkeyModeOf } from '../../lib/passkey-mode.ts';
import { getPasskey, isWebAuthnAvailable } from '../../lib/webauthn.ts';
import { mfaApi } from './api.ts';
import { enteredProof } from './code-format.ts';
import { analyticsProps, useFinishMfa } from './flow.ts';
import { describePasskeyFailure, type MfaProblem } from './mfa-errors.ts';
import { useCodeCheck } from './use-code-check.ts';
import { useCodeSending } from './use-code-sending.ts';
import { useDeliveryWatch } from './use-delivery-watch.ts';

/**
 * "Use your passkey or security key" (docs/passkeys.md): offered where the browser has WebAuthn
 * and the account has one for this domain while the tenant offers passkeys — the MFA status
 * says so (`passkeysHere`); a status without it (older fixtures) is answered by the account's
 * passkey list. Null while that is being read.
 */
function usePasskeyOption(status: MfaStatusResponse): boolean | null {
  const branding = useBranding();
  const known = status.passkeysHere;
  const [usable, setUsable] = useState<boolean | null>(
    known === undefined ? null : known && isWebAuthnAvailable(),
  );
  useEffect(() => {
    if (known !== undefined) return;
    let cancelled = false;
    (async () => {
      if (!isWebAuthnAvailable() || (await passkeyModeOf(branding)) === 'off') return false;
      const { passkeys } = await mfaApi.passkeys();
      return passkeys.some((passkey) => passkey.usableHere);
    })()
      .catch(() => false)
      .then((answer) => {
        if (!cancelled) setUsable(answer);
      });
    return () => {
      cancelled = true;
    };
  }, [branding, known]);
  return usable;
}

/**
 * SPEC §2 'Enter code at login': the state and actions of the verify screen. A phone factor
 * gets its code sent on arrival (and again on request, by SMS or voice); the code or a
 * recovery code is checked, and on success the device is trusted if asked and the sign-in goes on.
 * A passkey or security key of the account passes it too (an account whose only factor is a
 * passkey has no code to enter: `status.factor` is null).
 */
export function useMfaVerification(status: MfaStatusResponse) {
  const finish = useFinishMfa(status);
  const factor = status.factor;
  const isPhone = factor !== null && factor.deliveryType !== 'totp';
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [channel, setChannel] = useState<PhoneDeliveryType>(
    factor?.deliveryType === 'voice' ? 'voice' : 'sms',
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
  const passkeyOption = usePasskeyOption(status);
  const [passkeyPending, setPasskeyPending] = useState(false);

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
    void trackEvent('mfa_verification_required', analyticsProps(status, factor?.deliveryType));
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

  /** The account's passkey or security key instead of a code; the device is trusted if asked. */
  async function verifyWithPasskey() {
    if (passkeyPending) return;
    setPasskeyPending(true);
    setProblem(null);
    try {
      const { options } = await mfaApi.passkeyOptions();
      await mfaApi.passkeyVerify(await getPasskey(options));
    } catch (caught) {
      setPasskeyPending(false);
      const failed = describePasskeyFailure(caught);
      if (failed?.signedOut) return void finish(false);
      setProblem(failed);
      return;
    }
    delivery.stop();
    void trackEvent('mfa_success', analyticsProps(status));
    await finish(trust);
  }

  return {
    factor,
    passkey: { offered: passkeyOption === true, pending: passkeyPending, use: verifyWithPasskey },
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
