import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Page } from '../../../ui/page.tsx';
import { SupportLinks } from '../shared/support-links.tsx';

/** /error/verify-expired/ — the verification link is spent or old; log in again for a new one. */
export function VerifyExpiredPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="lifecycle.titles.verifyExpired" heading={t('lifecycle.verifyExpired.heading')}>
      <p>{t('lifecycle.verifyExpired.body', { count: lifecycleTokenTtl.verificationHours })}</p>
      <SupportLinks />
    </Page>
  );
}
