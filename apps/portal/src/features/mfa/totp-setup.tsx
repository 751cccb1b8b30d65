import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { useTranslation } from '../../lib/i18n.tsx';
import { TextWithEmail } from '../../ui/email-text.tsx';
import { Page } from '../../ui/page.tsx';
import {
  CodeField,
  CopyButton,
  ProblemNotice,
  RecoveryCodes,
  StepIndicator,
  TrustDevice,
} from './components.tsx';
import { useTotpSetup } from './use-totp-setup.ts';

const appStores = {
  ios: 'https://apps.apple.com/app/google-authenticator/id388497605',
  android: 'https://play.google.com/store/apps/details?id=com.google.android.apps.authenticator2',
};

/** The setup key in groups of four, as authenticator apps show it (they ignore the spaces). */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/** SPEC §2: authenticator-app registration in four steps. */
export function TotpSetup({ status, onBack }: { status: MfaStatusResponse; onBack: () => void }) {
  const { t } = useTranslation();
  const flow = useTotpSetup(status);
  const { step, setStep, registration, problem, entry, pending } = flow;

  if (step === 1) {
    return (
      <Page key="totp-1" titleKey="mfa.titles.totp" heading={t('mfa.totp.download.heading')}>
        <StepIndicator step={1} total={4} />
        <ProblemNotice problem={problem} />
        <p>{t('mfa.totp.download.body')}</p>
        <ul className="kc-mfa-stores">
          <li>
            <a className="kc-link" href={appStores.ios} target="_blank" rel="noopener noreferrer">
              {t('mfa.totp.download.ios')}
            </a>
          </li>
          <li>
            <a className="kc-link" href={appStores.android} target="_blank" rel="noopener noreferrer">
              {t('mfa.totp.download.android')}
            </a>
          </li>
        </ul>
        <div className="kc-mfa-actions">
          <button type="button" className="kc-button" onClick={flow.start} disabled={pending}>
            {t('mfa.common.next')}
          </button>
          <button type="button" className="kc-button kc-button-secondary" onClick={onBack}>
            {t('mfa.common.back')}
          </button>
        </div>
      </Page>
    );
  }

  if (step === 2 && registration) {
    return (
      <Page key="totp-2" titleKey="mfa.titles.totp" heading={t('mfa.totp.scan.heading')}>
        <StepIndicator step={2} total={4} />
        <p>{t('mfa.totp.scan.body')}</p>
        <img
          className="kc-mfa-qr"
          src={registration.qrCode}
          alt={t('mfa.totp.scan.qrAlt', { account: registration.account })}
          width={200}
          height={200}
        />
        <p>{t('mfa.totp.scan.manual')}</p>
        <div className="kc-field">
          <label htmlFor="kc-mfa-setup-key">{t('mfa.totp.scan.keyLabel')}</label>
          {/* A read-only text area: the whole key wraps into view at any width (an input
              clipped it), and it can still be selected and copied. */}
          <textarea
            id="kc-mfa-setup-key"
            className="kc-mfa-key"
            readOnly
            rows={2}
            value={groupKey(registration.secret)}
            onFocus={(event) => event.target.select()}
          />
        </div>
        {/* On a phone the authenticator app is on the same device: one tap adds the account. */}
        <p className="kc-mfa-open-app">
          <a className="kc-link" href={registration.otpauthUri}>
            {t('mfa.totp.scan.openApp')}
          </a>
        </p>
        <p className="kc-mfa-hint">
          {t('mfa.totp.scan.issuer', { issuer: registration.issuer })}
          <br />
          <TextWithEmail
            text={t('mfa.totp.scan.account', { account: registration.account })}
            email={registration.account}
          />
        </p>
        <CopyButton text={registration.secret} label={t('mfa.totp.scan.copyKey')} />
        <div className="kc-mfa-actions">
          <button type="button" className="kc-button" onClick={() => setStep(3)}>
            {t('mfa.common.next')}
          </button>
          <button type="button" className="kc-button kc-button-secondary" onClick={() => setStep(1)}>
            {t('mfa.common.back')}
          </button>
        </div>
      </Page>
    );
  }

  if (step === 3 && registration) {
    return (
      <Page key="totp-3" titleKey="mfa.titles.totp" heading={t('mfa.totp.code.heading')}>
        <StepIndicator step={3} total={4} />
        <ProblemNotice problem={entry.lockNotice} />
        <form onSubmit={flow.confirm} noValidate>
          <CodeField
            label={t('mfa.common.codeLabel')}
            hint={t('mfa.totp.code.body', { issuer: registration.issuer })}
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
            <button type="button" className="kc-button kc-button-secondary" onClick={() => setStep(2)}>
              {t('mfa.common.back')}
            </button>
          </div>
        </form>
      </Page>
    );
  }

  return (
    <Page key="totp-4" titleKey="mfa.titles.recoveryCodes" heading={t('mfa.totp.done.heading')}>
      <StepIndicator step={4} total={4} />
      <p>{t('mfa.totp.done.body')}</p>
      <RecoveryCodes codes={flow.recoveryCodes} intro={t('mfa.recovery.body')} onContinue={flow.finish} />
    </Page>
  );
}
