import type { SessionResponse } from '@keycard/contract/api';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiRequest } from '../../lib/api.ts';
import { flowStorage } from '../../lib/storage.ts';
import { LoadingPage } from '../../ui/page.tsx';
import { EmailVerificationPrompt } from '../account/email-verification-prompt.tsx';

/** SPEC §4 'Authenticated page', evaluated in order. */
export function AuthenticatedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      const session = await apiRequest<SessionResponse>('GET', '/api/session');
      if (!session.exists) {
        navigate(paths.root, { replace: true });
        return;
      }
      const { identity } = session;
      if (identity.emailVerificationRequired) {
        setVerifyEmail(identity.email);
        return;
      }
      const redirectUri = flowStorage.get(storageKeys.redirectUri) ?? identity.defaultRedirectUri;
      if (
        identity.passwordExpiryInDays !== null &&
        identity.passwordChangeWarningInDays !== null &&
        identity.passwordExpiryInDays <= identity.passwordChangeWarningInDays &&
        !flowStorage.get(storageKeys.expiryAcknowledged)
      ) {
        const query = new URLSearchParams({
          passwordExpiryInDays: String(identity.passwordExpiryInDays),
          redirectUri,
        });
        navigate(`${paths.passwordWillExpire}?${query}`, { replace: true });
        return;
      }
      const iid = flowStorage.get(storageKeys.iid);
      const deviceToken = localStorage.getItem(storageKeys.deviceId) ?? undefined;
      const answer = await apiRequest<{ location: string }>('POST', '/api/authorize', {
        ...(iid ? { iid } : { redirectUri }),
        ...(deviceToken ? { userDeviceToken: deviceToken } : {}),
      });
      flowStorage.remove(storageKeys.iid);
      flowStorage.remove(storageKeys.redirectUri);
      window.location.assign(answer.location);
    })().catch(() => navigate(paths.error, { replace: true }));
  }, [navigate]);

  if (verifyEmail) return <EmailVerificationPrompt email={verifyEmail} />;
  return <LoadingPage titleKey="titles.authenticated" label={t('authenticated.loading')} />;
}
