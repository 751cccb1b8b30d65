import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Page } from '../../../ui/page.tsx';
import { SupportLinks } from '../shared/support-links.tsx';

/** /activate/sent/ — a new activation mail is on its way; the contact-support link. */
export function ActivateSentPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="lifecycle.titles.activateSent" heading={t('lifecycle.activateSent.heading')}>
      <p>{t('lifecycle.activateSent.body', { count: lifecycleTokenTtl.activationDays })}</p>
      <p>{t('lifecycle.activateSent.help')}</p>
      <SupportLinks />
    </Page>
  );
}
