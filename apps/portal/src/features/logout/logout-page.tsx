import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { flowStorage } from '../../lib/storage.ts';
import { LoadingPage } from '../../ui/page.tsx';

/** SPEC §4 Logout: revoke, drop the cookie, then the given redirect or the login page. */
export function LogoutPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const redirectUri = query.get('redirectUri') ?? undefined;
    apiRequest<{ location: string }>('POST', apiPaths.logout, { redirectUri, langCode: i18n.language })
      .then(({ location }) => {
        let target = location;
        const stored = flowStorage.get(storageKeys.redirectUri);
        if (!redirectUri && flowStorage.get(storageKeys.iid) && stored) {
          target += `&redirectUri=${encodeURIComponent(stored)}`;
        }
        if (target.startsWith('/')) navigate(target, { replace: true });
        else window.location.replace(target);
      })
      .catch(() => navigate(paths.error, { replace: true }));
  }, [query, i18n.language, navigate]);

  return <LoadingPage titleKey="titles.logout" label={t('logout.loading')} />;
}
