import type { SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { flowStorage } from '../../lib/storage.ts';

/**
 * Authorization hand-off: keeps the redirect, then continues signed in (/authenticated) or
 * signs in first (/login with the redirect). A failed session check is the unknown-error page.
 */
export function useAuthorize(): void {
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
}
