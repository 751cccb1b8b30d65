import { useSearchParams } from '@keycard/web/router';
import { useTranslation } from '../../lib/i18n.tsx';
import { isReauthentication } from '../../lib/reauthentication.ts';
import { Notice } from '../../ui/fields.tsx';
import { PendingLabel } from '../../ui/page.tsx';
import { useBackToApp } from './use-back-to-app.ts';
import type { usePasskeyLogin } from './use-passkey-login.ts';

// What both steps of the login draw (login-page.tsx, password-step.tsx).

/** An app asked for a fresh sign-in (prompt=login, max_age): say why the password is asked again. */
export function ReauthenticationNotice() {
  const { t } = useTranslation();
  const params = useSearchParams();
  return isReauthentication(params) ? <Notice tone="info">{t('login.notices.reauthenticate')}</Notice> : null;
}

/** Part of an app's sign-in request: "Back to <app>" ends it, and the app learns the user declined. */
export function BackToApp() {
  const { t } = useTranslation();
  const back = useBackToApp();
  if (!back) return null;
  return (
    <div className="kc-links">
      <button type="button" className="kc-back" onClick={back.goBack} disabled={back.pending}>
        {t('login.app.back', { app: back.appName })}
      </button>
    </div>
  );
}

/** Between the two ways in: "or". */
export function Or() {
  const { t } = useTranslation();
  return (
    <p className="kc-or">
      <span>{t('login.passkey.or')}</span>
    </p>
  );
}

/**
 * "Sign in with a passkey": the browser asks for one at once. It stays focusable while the
 * browser's dialog is open (aria-disabled), so focus comes back to it when the dialog closes.
 */
export function PasskeyButton({
  passkey,
  primary,
  label = 'login.passkey.signIn',
}: {
  passkey: ReturnType<typeof usePasskeyLogin>;
  primary: boolean;
  label?: 'login.passkey.signIn' | 'login.passkey.instead';
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={primary ? 'kc-button kc-passkey' : 'kc-button kc-button-secondary kc-passkey'}
      aria-disabled={passkey.pending}
      aria-busy={passkey.pending}
      onClick={() => {
        if (!passkey.pending) passkey.signIn();
      }}
    >
      <PendingLabel pending={passkey.pending}>
        {passkey.pending ? t('login.passkey.waiting') : t(label)}
      </PendingLabel>
    </button>
  );
}
