import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page } from '../../../ui/page.tsx';
import { Benefits, offeredMethods, ProblemNotice } from '../components.tsx';
import type { MfaProblem } from '../mfa-errors.ts';
import { DaysLeft, usePostpone } from '../reminder-screen.tsx';

/** The other factors the tenant offers, as the setup screens name them. */
export function alternativeMethods(status: MfaStatusResponse): Array<'totp' | 'phone'> {
  const methods: Array<'totp' | 'phone'> = [];
  for (const method of status.methods) {
    if (method === 'totp') methods.push('totp');
    if ((method === 'sms' || method === 'voice') && status.phoneAvailable && !methods.includes('phone')) {
      methods.push('phone');
    }
  }
  return methods;
}

/**
 * SPEC §2 'Mobile-app registration for the partner app, with alternate options and skip (days
 * left)': what the app does, the button that shows the enrolment QR code, the other factors
 * the tenant offers, and skip while MFA is not yet mandatory.
 */
export function MobileRegistrationScreen({
  status,
  problem,
  busy,
  onStart,
  onChoose,
}: {
  status: MfaStatusResponse;
  problem: MfaProblem | null;
  busy: boolean;
  onStart: () => void;
  onChoose: (method: 'totp' | 'phone') => void;
}) {
  const { t } = useTranslation();
  const postpone = usePostpone(status);
  const alternativesId = useId();
  const days = status.mfaRequiredByRemainingInDays;
  const alternatives = alternativeMethods(status);
  return (
    <Page key="mobile-register" titleKey="mfa.titles.mobileSetup" heading={t('mfa.mobile.register.heading')}>
      {status.state === 'MFA_REGISTRATION_REQUIRED' ? (
        <Notice tone="info">{t('mfa.choose.required')}</Notice>
      ) : null}
      <ProblemNotice problem={problem} />
      {status.canSkip ? <DaysLeft days={days} /> : null}
      <p>{t('mfa.mobile.register.intro')}</p>
      <ol className="kc-mfa-steps">
        <li>{t('mfa.mobile.register.step1')}</li>
        <li>{t('mfa.mobile.register.step2')}</li>
        <li>{t('mfa.mobile.register.step3')}</li>
      </ol>
      <div className="kc-mfa-actions">
        <button type="button" className="kc-button" onClick={onStart} disabled={busy}>
          {t('mfa.mobile.register.start')}
        </button>
      </div>
      {alternatives.length > 0 ? (
        <section className="kc-mfa-alternatives" aria-labelledby={alternativesId}>
          <h2 id={alternativesId}>{t('mfa.mobile.register.alternatives')}</h2>
          <div className="kc-mfa-actions">
            {alternatives.map((method) => (
              <button
                key={method}
                type="button"
                className="kc-button kc-button-secondary"
                onClick={() => onChoose(method)}
              >
                {t(method === 'totp' ? 'mfa.mobile.register.useApp' : 'mfa.mobile.register.usePhone')}
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <Benefits days={status.trustedDeviceDays} methods={offeredMethods(status)} />
      <div className="kc-links">
        {status.canSkip ? (
          <button type="button" className="kc-back" onClick={postpone.ask}>
            {days !== null && days > 0 ? t('mfa.choose.skipDays', { count: days }) : t('mfa.choose.skip')}
          </button>
        ) : null}
        {status.state === 'AUTHENTICATED' ? (
          <Link className="kc-link" to={paths.authenticated} replace>
            {t('mfa.choose.skip')}
          </Link>
        ) : null}
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
      {postpone.dialog}
    </Page>
  );
}
