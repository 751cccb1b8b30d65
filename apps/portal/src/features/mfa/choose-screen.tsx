import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Notice } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { Benefits } from './components.tsx';
import { DaysLeft, usePostpone } from './reminder-screen.tsx';

/** Choose a method: authenticator app or phone; skip only while MFA is not yet mandatory. */
export function ChooseScreen({
  status,
  onChoose,
}: {
  status: MfaStatusResponse;
  onChoose: (method: 'totp' | 'phone') => void;
}) {
  const { t } = useTranslation();
  const postpone = usePostpone(status);
  const days = status.mfaRequiredByRemainingInDays;
  return (
    <Page titleKey="mfa.titles.setup" heading={t('mfa.choose.heading')}>
      {status.state === 'MFA_REGISTRATION_REQUIRED' ? (
        <Notice tone="info">{t('mfa.choose.required')}</Notice>
      ) : null}
      {status.canSkip ? <DaysLeft days={days} /> : null}
      <p>{t('mfa.choose.intro')}</p>
      <ul className="kc-mfa-options">
        <li>
          <button type="button" className="kc-mfa-option" onClick={() => onChoose('totp')}>
            <span className="kc-mfa-option-title">{t('mfa.choose.app')}</span>
            <span className="kc-mfa-option-hint">{t('mfa.choose.appHint')}</span>
          </button>
        </li>
        {status.phoneAvailable ? (
          <li>
            <button type="button" className="kc-mfa-option" onClick={() => onChoose('phone')}>
              <span className="kc-mfa-option-title">{t('mfa.choose.phone')}</span>
              <span className="kc-mfa-option-hint">{t('mfa.choose.phoneHint')}</span>
            </button>
          </li>
        ) : null}
      </ul>
      <Benefits days={status.trustedDeviceDays} />
      <div className="kc-links">
        {status.canSkip ? (
          <button type="button" className="kc-back" onClick={postpone.ask}>
            {days !== null && days > 0 ? t('mfa.choose.skipDays', { days }) : t('mfa.choose.skip')}
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
