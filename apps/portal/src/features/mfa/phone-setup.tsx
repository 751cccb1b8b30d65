import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { waitValues } from '../../lib/duration.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Page } from '../../ui/page.tsx';
import {
  CodeField,
  HintedField,
  ProblemNotice,
  RecoveryCodes,
  ResendControls,
  StepIndicator,
  TrustDevice,
} from './components.tsx';
import { CountryPicker } from './country-picker.tsx';
import { usePhoneSetup } from './use-phone-setup.ts';

/** SPEC §2: phone registration in three steps (SMS or voice and the number; the code; success). */
export function PhoneSetup({ status, onBack }: { status: MfaStatusResponse; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const flow = usePhoneSetup(status);
  const { step, channel, fieldErrors, problem, sent, entry, pending, seconds } = flow;

  if (step === 1) {
    return (
      <Page key="phone-1" titleKey="mfa.titles.phone" heading={t('mfa.phone.number.heading')}>
        <StepIndicator step={1} total={3} />
        <ProblemNotice problem={problem} />
        <form onSubmit={flow.submitNumber} noValidate>
          <fieldset className="kc-mfa-choice">
            <legend>{t('mfa.phone.number.method')}</legend>
            {flow.channels.map((value) => (
              <div className="kc-checkbox" key={value}>
                <input
                  id={`kc-mfa-channel-${value}`}
                  type="radio"
                  name="deliveryType"
                  value={value}
                  checked={channel === value}
                  onChange={() => flow.setChannel(value)}
                />
                <label htmlFor={`kc-mfa-channel-${value}`}>{t(`mfa.phone.number.${value}`)}</label>
              </div>
            ))}
          </fieldset>
          <CountryPicker
            countries={flow.countries}
            region={flow.region}
            onChange={flow.setRegion}
            selectRef={flow.countryRef}
            error={fieldErrors.countryCode}
          />
          <HintedField
            label={t('mfa.phone.number.phoneNumber')}
            hint={channel === 'voice' ? t('mfa.phone.number.voiceHint') : undefined}
            name="phoneNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            value={flow.phoneNumber}
            inputRef={flow.numberRef}
            onChange={(event) => flow.setPhoneNumber(event.target.value)}
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
        <ProblemNotice problem={flow.codeProblem} />
        <p role="status">
          {flow.resent ? `${t('mfa.resend.sent')} ` : ''}
          {t(`mfa.phone.code.${sent.deliveryType}`, { phone: sent.phone })}
        </p>
        <form onSubmit={flow.confirm} noValidate>
          <CodeField
            label={t('mfa.common.codeLabel')}
            hint={t('mfa.common.codeHint')}
            value={entry.value}
            onChange={entry.setValue}
            error={entry.fieldError}
            inputRef={entry.inputRef}
          />
          <TrustDevice days={status.trustedDeviceDays} checked={flow.trust} onChange={flow.setTrust} />
          <div className="kc-mfa-actions">
            <button type="submit" className="kc-button" disabled={pending || entry.locked}>
              {t('mfa.common.verify')}
            </button>
          </div>
        </form>
        {entry.locked ? null : <ResendControls seconds={seconds} busy={pending} onResend={flow.resend} />}
        <div className="kc-links">
          <button type="button" className="kc-back" onClick={flow.changeNumber}>
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
      <RecoveryCodes codes={flow.recoveryCodes} intro={t('mfa.recovery.body')} onContinue={flow.finish} />
    </Page>
  );
}
