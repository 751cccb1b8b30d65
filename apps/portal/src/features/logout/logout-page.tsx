import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { useLogout } from './use-logout.ts';

/** /logout: a loader while the session ends (use-logout.ts). */
export function LogoutPage() {
  const { t } = useTranslation();
  useLogout();
  return <LoadingPage titleKey="titles.logout" label={t('logout.loading')} />;
}
