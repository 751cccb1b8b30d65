import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { accountApi } from './api.ts';

/**
 * Resetting from an expiry page: the current session ends first (a reset ends every session
 * anyway, and the reset link would otherwise meet the log-out-first dialog), then the reset
 * page opens with the account's address filled in.
 */
export function useResetThroughLogout(): () => void {
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    accountApi
      .session()
      .then((session) => !cancelled && session.exists && setEmail(session.identity.email))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  return () => {
    const reset = new URL(paths.resetPassword, window.location.origin);
    if (email) reset.searchParams.set('email', email);
    navigate(`${paths.logout}?${new URLSearchParams({ redirectUri: reset.href })}`);
  };
}
