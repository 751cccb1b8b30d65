import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { useCodeExchange } from './use-code-exchange.ts';

/** /authenticate: a loader while the login's code is traded for the session. */
export function AuthenticatePage() {
  const { t } = useTranslation();
  useCodeExchange();
  return <LoadingPage titleKey="titles.authenticate" label={t('authenticate.loading')} />;
}
