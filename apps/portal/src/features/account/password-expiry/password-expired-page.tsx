import { useTranslation } from '../../../lib/i18n.tsx';
import { Page } from '../../../ui/page.tsx';
import { SupportLinks } from '../shared/support-links.tsx';
import { useResetThroughLogout } from '../shared/use-reset-through-logout.ts';
import '../shared/account.css';

/** /error/password-expired/ — the password is past its lifetime; the way out is a reset. */
export function PasswordExpiredPage() {
  const { t } = useTranslation();
  const reset = useResetThroughLogout();
  return (
    <Page titleKey="lifecycle.titles.passwordExpired" heading={t('lifecycle.passwordExpired.heading')}>
      <p>{t('lifecycle.passwordExpired.body')}</p>
      <div className="kc-actions">
        <button type="button" className="kc-button" onClick={reset}>
          {t('lifecycle.passwordExpired.reset')}
        </button>
      </div>
      <SupportLinks />
    </Page>
  );
}
