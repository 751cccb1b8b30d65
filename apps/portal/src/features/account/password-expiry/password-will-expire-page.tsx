import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect } from 'react';
import { type Translate, useTranslation } from '../../../lib/i18n.tsx';
import { flowStorage } from '../../../lib/storage.ts';
import { Page } from '../../../ui/page.tsx';
import { PasswordChangeForm } from './password-change-form.tsx';
import { usePasswordChangeInPlace } from './use-password-change-in-place.ts';
import '../shared/account.css';

/** The flag /authenticated honours: the warning was seen, continue the sign-in. */
const expiryAcknowledgedKey = storageKeys.expiryAcknowledged;

/** Today, tomorrow (words of their own) or in N days. */
function expiryText(t: Translate, days: number): string {
  if (days <= 0) return t('lifecycle.passwordWillExpire.today');
  if (days === 1) return t('lifecycle.passwordWillExpire.tomorrow');
  return t('lifecycle.passwordWillExpire.inDays', { count: days });
}

/**
 * /error/password-will-expire/?passwordExpiryInDays&redirectUri — change it now, right here,
 * or later and go on.
 */
export function PasswordWillExpirePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const raw = params.get('passwordExpiryInDays') ?? '';
  const days = /^\d{1,4}$/.test(raw) ? Number(raw) : null;
  const redirectUri = params.get('redirectUri');
  const change = usePasswordChangeInPlace({ redirectUri });

  useEffect(() => {
    if (days === null) navigate(paths.error, { replace: true });
  }, [days, navigate]);
  if (days === null) return null;

  // SPEC §4 step 3: 'later' continues to the final redirect this page was given. It is kept
  // as the login keeps its redirectUri and /authenticated hands it to the server, which
  // follows only a redirect registered for the tenant (invariant 2) — never the page itself.
  // An app's pending request (iid) still finishes at that app's own redirect.
  function later() {
    if (redirectUri) flowStorage.set(storageKeys.redirectUri, redirectUri);
    flowStorage.set(expiryAcknowledgedKey, 'true');
    navigate(paths.authenticated, { replace: true });
  }

  return (
    <Page titleKey="lifecycle.titles.passwordWillExpire" heading={t('lifecycle.passwordWillExpire.heading')}>
      <p>{expiryText(t, days)}</p>
      <p>{t('account.expiry.willExpireIntro')}</p>
      <PasswordChangeForm change={change} />
      <div className="kc-actions">
        <button type="button" className="kc-button kc-button-secondary" onClick={later}>
          {t('lifecycle.passwordWillExpire.resetLater')}
        </button>
      </div>
    </Page>
  );
}
