import { apiPaths } from '@keycard/contract/api-paths';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { forgetSignedIn } from '../../lib/signed-in.ts';
import { flowStorage } from '../../lib/storage.ts';

/**
 * Where the browser goes after logging out: the server's answer, with the app's redirect
 * carried on when an app's request (iid) is still pending and no redirect was asked for.
 */
export function logoutTarget(
  location: string,
  asked: string | undefined,
  storage: { get(key: string): string | null },
): string {
  const stored = storage.get(storageKeys.redirectUri);
  if (!asked && storage.get(storageKeys.iid) && stored) {
    return `${location}&redirectUri=${encodeURIComponent(stored)}`;
  }
  return location;
}

/**
 * SPEC §4 Logout: revoke, drop the cookie, then the given redirect or the login page (an
 * address of the portal's own is a navigation, anything else a new page). A failure is the
 * unknown-error page.
 */
export function useLogout(): void {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    forgetSignedIn();
    const redirectUri = query.get('redirectUri') ?? undefined;
    apiRequest<{ location: string }>('POST', apiPaths.logout, { redirectUri, langCode: i18n.language })
      .then(({ location }) => {
        const target = logoutTarget(location, redirectUri, flowStorage);
        if (target.startsWith('/')) navigate(target, { replace: true });
        else window.location.replace(target);
      })
      .catch(() => navigate(paths.error, { replace: true }));
  }, [query, i18n.language, navigate]);
}
