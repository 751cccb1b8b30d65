import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useTranslation } from '../../../lib/i18n.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { usePartnerSso } from '../hooks/use-partner-sso.ts';
import { NetworkErrorDialog } from './network-error-dialog.tsx';
import '../partner-sso.css';

/** /partners/:partnerCode/sso/:token — a loader while the partner's token is traded for a session. */
export function PartnerSsoPage() {
  const { t } = useTranslation();
  const { networkError, emailUnverified, retry, giveUp } = usePartnerSso();
  if (emailUnverified) {
    // The partner did not assert the address as verified: nothing was linked or created.
    return (
      <Page titleKey="titles.partnerSso" heading={t('partnerSso.emailUnverified.heading')}>
        <p>{t('partnerSso.emailUnverified.body')}</p>
        <Link className="kc-button" to={paths.login}>
          {t('partnerSso.emailUnverified.signIn')}
        </Link>
      </Page>
    );
  }
  return (
    <>
      <LoadingPage titleKey="titles.partnerSso" label={t('partnerSso.loading')} />
      {networkError ? <NetworkErrorDialog onReload={retry} onClose={giveUp} /> : null}
    </>
  );
}
