import { mfaErrors } from '@keycard/contract/errors';
import type { MfaStatusResponse, PhoneCodeSentResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { type FormEvent, useRef, useState } from 'react';
import { waitValues } from '../../lib/duration.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Checkbox } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { mfaApi } from './api.ts';
import { isCompleteCode } from './code-format.ts';
import {
  CodeField,
  HintedField,
  ProblemNotice,
  problemText,
  RecoveryCodes,
  ResendControls,
  StepIndicator,
} from './components.tsx';
import { confirmRegistration } from './confirm-registration.ts';
import { useFinishMfa } from './flow.ts';
import { describeMfaError, isErrorCode, type MfaProblem } from './mfa-errors.ts';
import { useCountdown } from './use-countdown.ts';
import { useDeliveryWatch } from './use-delivery-watch.ts';

/** SPEC §2: phone registration in three steps (SMS or voice and the number; the code; success). */
export function PhoneSetup({ status, onBack }: { status: MfaStatusResponse; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const finish = useFinishMfa(status);
  const [step, setStep] = useState(1);
  const [channel, setChannel] = useState<PhoneDeliveryType>('sms');
  const [countryCode, setCountryCode] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ countryCode?: string; phoneNumber?: string }>({});
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [sent, setSent] = useState<PhoneCodeSentResponse | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [trust, setTrust] = useState(true);
  const [pending, setPending] = useState(false);
  const [resent, setResent] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [seconds, startCountdown] = useCountdown();
  // Checks are locked (too many wrong codes): Verify and resend wait for the end of the lock.
  const [lockedFor, startLock] = useCountdown();
  const [lockProblem, setLockProblem] = useState<MfaProblem | null>(null);
  const delivery = useDeliveryWatch(setProblem);
  const countryRef = useRef<HTMLInputElement>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  function codeSent(answer: PhoneCodeSentResponse) {
    setSent(answer);
    startCountdown(answer.resendInSeconds);
    if (answer.deliveryType === 'voice') delivery.watch();
  }

  async function submitNumber(event: FormEvent) {
    event.preventDefault();
    const errors: { countryCode?: string; phoneNumber?: string } = {};
    if (!countryCode.trim() && !phoneNumber.trim().startsWith('+')) errors.countryCode = t('common.required');
    if (!phoneNumber.trim()) errors.phoneNumber = t('common.required');
    setFieldErrors(errors);
    setProblem(null);
    if (errors.countryCode) return countryRef.current?.focus();
    if (errors.phoneNumber) return numberRef.current?.focus();
    setPending(true);
    try {
      codeSent(await mfaApi.registerPhone({ countryCode, phoneNumber, deliveryType: channel }));
      setCode('');
      setCodeError(undefined);
      setStep(2);
    } catch (caught) {
      const described = describeMfaError(caught);
      if (described.signedOut) return finish(false);
      if (described.field) {
        setFieldErrors({ [described.field]: problemText(t, described, i18n.language) });
        (described.field === 'countryCode' ? countryRef : numberRef).current?.focus();
      } else {
        setProblem(described);
        if (described.retryAfterSeconds) startCountdown(described.retryAfterSeconds);
      }
    } finally {
      setPending(false);
    }
  }

  async function resend(next: PhoneDeliveryType) {
    setPending(true);
    setProblem(null);
    setResent(false);
    try {
      codeSent(await mfaApi.sendPhoneCode(next));
      setResent(true);
      codeRef.current?.focus();
    } catch (caught) {
      const described = describeMfaError(caught);
      if (isErrorCode(caught, mfaErrors.resendTooSoon) && described.retryAfterSeconds) {
        startCountdown(described.retryAfterSeconds);
      } else {
        setProblem(described);
        // Too many codes sent: no new one is offered before the wait it names has passed.
        if (described.retryAfterSeconds) startCountdown(described.retryAfterSeconds);
      }
    } finally {
      setPending(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!isCompleteCode(code)) {
      setCodeError(t('mfa.errors.codeFormat'));
      codeRef.current?.focus();
      return;
    }
    setPending(true);
    setCodeError(undefined);
    setProblem(null);
    const outcome = await confirmRegistration(status, code, sent?.deliveryType ?? channel);
    setPending(false);
    if (outcome.kind === 'signedOut') return finish(false);
    if (outcome.kind === 'registered') {
      delivery.stop();
      setRecoveryCodes(outcome.recoveryCodes);
      setStep(3);
      return;
    }
    if (outcome.problem.key === 'mfa.errors.rateLimited' && outcome.problem.retryAfterSeconds) {
      setLockProblem(outcome.problem);
      startLock(outcome.problem.retryAfterSeconds);
    } else {
      setCodeError(problemText(t, outcome.problem, i18n.language));
    }
    setCode('');
    codeRef.current?.focus();
  }

  if (step === 1) {
    return (
      <Page key="phone-1" titleKey="mfa.titles.phone" heading={t('mfa.phone.number.heading')}>
        <StepIndicator step={1} total={3} />
        <ProblemNotice problem={problem} />
        <form onSubmit={submitNumber} noValidate>
          <fieldset className="kc-mfa-choice">
            <legend>{t('mfa.phone.number.method')}</legend>
            {(['sms', 'voice'] as const).map((value) => (
              <div className="kc-checkbox" key={value}>
                <input
                  id={`kc-mfa-channel-${value}`}
                  type="radio"
                  name="deliveryType"
                  value={value}
                  checked={channel === value}
                  onChange={() => setChannel(value)}
                />
                <label htmlFor={`kc-mfa-channel-${value}`}>{t(`mfa.phone.number.${value}`)}</label>
              </div>
            ))}
          </fieldset>
          <HintedField
            label={t('mfa.phone.number.countryCode')}
            hint={t('mfa.phone.number.countryCodeHint')}
            name="countryCode"
            type="text"
            inputMode="tel"
            autoComplete="tel-country-code"
            value={countryCode}
            inputRef={countryRef}
            onChange={(event) => setCountryCode(event.target.value)}
            error={fieldErrors.countryCode}
          />
          <HintedField
            label={t('mfa.phone.number.phoneNumber')}
            hint={channel === 'voice' ? t('mfa.phone.number.voiceHint') : undefined}
            name="phoneNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            value={phoneNumber}
            inputRef={numberRef}
            onChange={(event) => setPhoneNumber(event.target.value)}
            error={fieldErrors.phoneNumber}
          />
          {seconds > 0 && problem ? (
            <p className="kc-mfa-countdown">{t('mfa.resend.wait', waitValues(seconds, i18n.language))}</p>
          ) : null}
          <div className="kc-mfa-actions">
            <button
              type="submit"
              className="kc-button"
              disabled={pending || (seconds > 0 && problem !== null)}
            >
              {channel === 'voice' ? t('mfa.phone.number.call') : t('mfa.phone.number.send')}
            </button>
            <button type="button" className="kc-button kc-button-secondary" onClick={onBack}>
              {t('mfa.common.back')}
            </button>
          </div>
        </form>
      </Page>
    );
  }

  if (step === 2 && sent) {
    return (
      <Page key="phone-2" titleKey="mfa.titles.phone" heading={t('mfa.phone.code.heading')}>
        <StepIndicator step={2} total={3} />
        <ProblemNotice
          problem={lockedFor > 0 && lockProblem ? { ...lockProblem, retryAfterSeconds: lockedFor } : problem}
        />
        <p role="status">
          {resent ? `${t('mfa.resend.sent')} ` : ''}
          {t(`mfa.phone.code.${sent.deliveryType}`, { phone: sent.phone })}
        </p>
        <form onSubmit={confirm} noValidate>
          <CodeField
            label={t('mfa.common.codeLabel')}
            hint={t('mfa.common.codeHint')}
            value={code}
            onChange={setCode}
            error={codeError}
            inputRef={codeRef}
          />
          <Checkbox
            label={t('mfa.common.trustDevice', { days: status.trustedDeviceDays })}
            checked={trust}
            onChange={(event) => setTrust(event.target.checked)}
          />
          <button type="submit" className="kc-button" disabled={pending || lockedFor > 0}>
            {t('mfa.common.verify')}
          </button>
        </form>
        {lockedFor > 0 ? null : <ResendControls seconds={seconds} busy={pending} onResend={resend} />}
        <div className="kc-links">
          <button
            type="button"
            className="kc-back"
            onClick={() => {
              delivery.stop();
              setProblem(null);
              setStep(1);
            }}
          >
            {t('mfa.phone.code.changeNumber')}
          </button>
        </div>
      </Page>
    );
  }

  return (
    <Page key="phone-3" titleKey="mfa.titles.recoveryCodes" heading={t('mfa.phone.done.heading')}>
      <StepIndicator step={3} total={3} />
      <p>{t('mfa.phone.done.body', { phone: sent?.phone ?? '' })}</p>
      <RecoveryCodes
        codes={recoveryCodes}
        intro={t('mfa.recovery.body')}
        onContinue={() => void finish(trust)}
      />
    </Page>
  );
}
