import { useTranslation } from '../../../lib/i18n.tsx';
import { LoadingPage } from '../../../ui/page.tsx';
import { usePartnerSso } from '../hooks/use-partner-sso.ts';
import { NetworkErrorDialog } from './network-error-dialog.tsx';
import '../partner-sso.css';

/** /partners/:partnerCode/sso/:token — a loader while the partner's token is traded for a session. */
export function PartnerSsoPage() {
  const { t } = useTranslation();
  const { networkError, retry, giveUp } = usePartnerSso();
  return (
    <>
      <LoadingPage titleKey="titles.partnerSso" label={t('partnerSso.loading')} />
      {networkError ? <NetworkErrorDialog onReload={retry} onClose={giveUp} /> : null}
    </>
  );
}
