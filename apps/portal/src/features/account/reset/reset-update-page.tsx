import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { NewPasswordForm } from '../shared/credentials-form.tsx';
import { commonOutcome, type FormOutcome, statusOf } from '../shared/outcomes.ts';
import { SessionDialog } from '../shared/session-dialog.tsx';
import { useSessionCheck } from '../shared/use-session-check.ts';

/**
 * /reset-password/update?token&email — both are required (else the unknown error page). SPEC
 * §8: 409 TokenNotFound and 410 TokenExpired go back to the reset page with tokenExpired.
 */
export function ResetUpdatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const session = useSessionCheck();
  const [ready, setReady] = useState(false);

  const expiredPage = `${paths.resetPassword}?${new URLSearchParams({ tokenExpired: 'true', ...(email ? { email } : {}) })}`;

  useEffect(() => {
    if (!token || !email) {
      navigate(paths.error, { replace: true });
      return;
    }
    if (session !== 'none') return;
    let cancelled = false;
    // Checked before the form, so nobody types a new password for a dead link.
    accountApi
      .validateReset(token)
      .then(() => !cancelled && setReady(true))
      .catch((error) => {
        if (cancelled) return;
        const status = statusOf(error);
        navigate(status === 409 || status === 410 ? expiredPage : paths.error, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, email, session, navigate, expiredPage]);

  async function reset(password: string): Promise<FormOutcome> {
    try {
      const recaptchaToken = await captchaToken('PASSWORD_RESET');
      await accountApi.applyReset({ token: token as string, password, recaptchaToken });
      const query = new URLSearchParams({
        resetPassword: 'true',
        newSession: 'true',
        email: email as string,
      });
      navigate(`${paths.login}?${query}`, { replace: true });
      return null;
    } catch (error) {
      const outcome = commonOutcome(error);
      if (outcome) return outcome;
      const status = statusOf(error);
      navigate(status === 409 || status === 410 ? expiredPage : paths.error, { replace: true });
      return null;
    }
  }

  if (session === 'exists') {
    return (
      <Page titleKey="lifecycle.titles.resetPasswordUpdate" heading={t('lifecycle.resetUpdate.heading')}>
        <SessionDialog />
      </Page>
    );
  }
  if (!ready || !email) {
    return (
      <LoadingPage
        titleKey="lifecycle.titles.resetPasswordUpdate"
        label={t('lifecycle.resetUpdate.checking')}
      />
    );
  }
  return (
    <Page titleKey="lifecycle.titles.resetPasswordUpdate" heading={t('lifecycle.resetUpdate.heading')}>
      <p>{t('lifecycle.resetUpdate.intro', { email })}</p>
      <NewPasswordForm email={email} submitLabel={t('lifecycle.resetUpdate.submit')} submit={reset} />
    </Page>
  );
}
