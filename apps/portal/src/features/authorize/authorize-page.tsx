import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { useAuthorize } from './use-authorize.ts';

/** /authorize: a loader while the hand-off decides where to go. */
export function AuthorizePage() {
  const { t } = useTranslation();
  useAuthorize();
  return <LoadingPage titleKey="titles.authorize" label={t('authenticated.loading')} />;
}
