import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { flowStorage } from '../../lib/storage.ts';
import { LoadingPage } from '../../ui/page.tsx';

/** Authorization hand-off: keep the redirect, then continue signed in or sign in first. */
export function AuthorizePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const redirectUri = query.get('redirectUri');
    if (redirectUri) flowStorage.set(storageKeys.redirectUri, redirectUri);
    apiRequest<SessionResponse>('GET', apiPaths.session)
      .then((session) => {
        if (session.exists) navigate(paths.authenticated, { replace: true });
        else
          navigate(`${paths.login}${redirectUri ? `?${new URLSearchParams({ redirectUri })}` : ''}`, {
            replace: true,
          });
      })
      .catch(() => navigate(paths.error, { replace: true }));
  }, [query, navigate]);

  return <LoadingPage titleKey="titles.authorize" label={t('authenticated.loading')} />;
}
