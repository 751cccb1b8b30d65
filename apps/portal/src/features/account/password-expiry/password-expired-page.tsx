import { useTranslation } from '../../../lib/i18n.tsx';
import { Page } from '../../../ui/page.tsx';
import { SupportLinks } from '../shared/support-links.tsx';
import { PasswordChangeForm } from './password-change-form.tsx';
import { usePasswordChangeInPlace } from './use-password-change-in-place.ts';
import '../shared/account.css';

/**
 * /error/password-expired/ — the password is past its lifetime. It was typed a moment ago,
 * so it is changed right here, and the sign-in goes on (no mail round trip).
 */
export function PasswordExpiredPage() {
  const { t } = useTranslation();
  const change = usePasswordChangeInPlace('state');
  return (
    <Page titleKey="lifecycle.titles.passwordExpired" heading={t('lifecycle.passwordExpired.heading')}>
      <p>{t('account.expiry.expiredIntro')}</p>
      <PasswordChangeForm change={change} />
      <SupportLinks />
    </Page>
  );
}
