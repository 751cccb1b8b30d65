import type { MfaStatusResponse, PhoneCodeSentResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { mfaApi } from './api.ts';
import { isCompleteCode } from './code-format.ts';
import { problemText } from './components.tsx';
import { countryList, defaultRegion } from './countries.ts';
import { analyticsProps, useFinishMfa } from './flow.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';
import { useCodeCheck } from './use-code-check.ts';
import { useCodeSending } from './use-code-sending.ts';
import { useDeliveryWatch } from './use-delivery-watch.ts';

type NumberErrors = { countryCode?: string; phoneNumber?: string };

/**
 * SPEC §2 phone registration in three steps: SMS or voice and the number (a refusal about one
 * of them is said on its field), the code that was sent (sent again on request), and the
 * recovery codes; then the device is trusted if asked and the sign-in goes on.
 */
export function usePhoneSetup(status: MfaStatusResponse) {
  const { t, i18n } = useTranslation();
  const finish = useFinishMfa(status);
  const [step, setStep] = useState(1);
  // Only the phone channels the tenant offers (a tenant without voice has no "Voice call").
  const offered = (['sms', 'voice'] as const).filter((value) => status.methods.includes(value));
  const channels: readonly PhoneDeliveryType[] = offered.length > 0 ? offered : ['sms', 'voice'];
  const [channel, setChannel] = useState<PhoneDeliveryType>(channels[0] ?? 'sms');
  const countries = useMemo(() => countryList(i18n.language), [i18n.language]);
  // The page's language and the browser's region (de-AT → Austria, th → Thailand).
  const [region, setRegion] = useState(() => defaultRegion(i18n.language, navigator.languages ?? []));
  const countryCode = `+${countries.find((country) => country.region === region)?.callingCode ?? ''}`;
  const [phoneNumber, setPhoneNumber] = useState('');
  const [fieldErrors, setFieldErrors] = useState<NumberErrors>({});
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [sent, setSent] = useState<PhoneCodeSentResponse | null>(null);
  // Unticked until the person ticks it, as in every flow (issue 19 item 15).
  const [trust, setTrust] = useState(false);
  const [registering, setRegistering] = useState(false);
  const [resent, setResent] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const sending = useCodeSending(setProblem);
  const entry = useCodeCheck({
    status,
    onSignedOut: () => void finish(false),
    clearProblem: () => setProblem(null),
  });
  const delivery = useDeliveryWatch(setProblem);
  const countryRef = useRef<HTMLSelectElement>(null);
  const numberRef = useRef<HTMLInputElement>(null);

  function codeSent(answer: PhoneCodeSentResponse) {
    setSent(answer);
    if (answer.deliveryType === 'voice') delivery.watch();
  }

  async function submitNumber(event: FormEvent) {
    event.preventDefault();
    const errors: NumberErrors = {};
    if (!phoneNumber.trim()) errors.phoneNumber = t('common.required');
    setFieldErrors(errors);
    setProblem(null);
    if (errors.countryCode) return countryRef.current?.focus();
    if (errors.phoneNumber) return numberRef.current?.focus();
    setRegistering(true);
    try {
      const answer = await mfaApi.registerPhone({ countryCode, phoneNumber, deliveryType: channel });
      sending.startCountdown(answer.resendInSeconds);
      codeSent(answer);
      entry.reset();
      setStep(2);
    } catch (caught) {
      const described = describeMfaError(caught);
      if (described.signedOut) return finish(false);
      if (described.field) {
        setFieldErrors({ [described.field]: problemText(t, described, i18n.language) });
        (described.field === 'countryCode' ? countryRef : numberRef).current?.focus();
      } else {
        setProblem(described);
        if (described.retryAfterSeconds) sending.startCountdown(described.retryAfterSeconds);
      }
    } finally {
      setRegistering(false);
    }
  }

  async function resend(next: PhoneDeliveryType) {
    setResent(false);
    const answer = await sending.send(() => mfaApi.sendPhoneCode(next));
    if (answer === null || answer === 'onItsWay') return;
    codeSent(answer);
    setResent(true);
    entry.inputRef.current?.focus();
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!isCompleteCode(entry.value)) {
      entry.reject('mfa.errors.codeFormat');
      return;
    }
    const code = entry.value;
    const deliveryType = sent?.deliveryType ?? channel;
    const answer = await entry.check(() => mfaApi.verify({ code, deliveryType }), deliveryType);
    entry.settle();
    if (!answer) return;
    void trackEvent('mfa_register', analyticsProps(status, deliveryType));
    delivery.stop();
    setRecoveryCodes(answer.recoveryCodes ?? []);
    setStep(3);
  }

  return {
    step,
    channels,
    channel,
    setChannel,
    countries,
    region,
    setRegion,
    phoneNumber,
    setPhoneNumber,
    fieldErrors,
    countryRef,
    numberRef,
    problem,
    /** The code step's notice: the lock while checks are locked, else the last problem. */
    codeProblem: entry.lockNotice ?? problem,
    sent,
    resent,
    trust,
    setTrust,
    entry,
    pending: registering || sending.pending || entry.pending,
    seconds: sending.seconds,
    recoveryCodes,
    submitNumber,
    resend: (next: PhoneDeliveryType) => void resend(next),
    confirm,
    changeNumber: () => {
      delivery.stop();
      setProblem(null);
      setStep(1);
    },
    finish: () => void finish(trust),
  };
}
