import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { type Credentials, CredentialsForm } from '../shared/credentials-form.tsx';
import { commonOutcome, type FormOutcome, statusOf } from '../shared/outcomes.ts';
import { SessionDialog } from '../shared/session-dialog.tsx';
import { useSessionCheck } from '../shared/use-session-check.ts';

/** SPEC §8 activation: TokenInvalid (409) and TokenExpired (410) go to the activate-expired page. */
const isExpiredLink = (error: unknown) => statusOf(error) === 409 || statusOf(error) === 410;

/** /activate/?token — validate the link, then set the password and the secret question. */
export function ActivatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const token = params.get('token');
  const session = useSessionCheck();
  const [email, setEmail] = useState<string | null>(null);

  useEffect(() => {
    if (!token) {
      navigate(paths.error, { replace: true });
      return;
    }
    if (session !== 'none') return;
    let cancelled = false;
    accountApi
      .validateActivation(token)
      .then((answer) => !cancelled && setEmail(answer.email))
      .catch((error) => {
        if (!cancelled)
          navigate(isExpiredLink(error) ? paths.activateExpired : paths.error, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, session, navigate]);

  async function activate(credentials: Credentials): Promise<FormOutcome> {
    try {
      const recaptchaToken = await captchaToken('SIGNUP');
      const answer = await accountApi.activate({ token: token as string, ...credentials, recaptchaToken });
      const query = new URLSearchParams({ activateSuccess: 'true', newSession: 'true', email: answer.email });
      navigate(`${paths.login}?${query}`, { replace: true });
      return null;
    } catch (error) {
      const outcome = commonOutcome(error);
      if (outcome) return outcome;
      navigate(isExpiredLink(error) ? paths.activateExpired : paths.error, { replace: true });
      return null;
    }
  }

  if (session === 'exists') {
    return (
      <Page titleKey="lifecycle.titles.activate" heading={t('lifecycle.activate.heading')}>
        <SessionDialog />
      </Page>
    );
  }
  if (!email) {
    return <LoadingPage titleKey="lifecycle.titles.activate" label={t('lifecycle.activate.checking')} />;
  }
  return (
    <Page titleKey="lifecycle.titles.activate" heading={t('lifecycle.activate.heading')}>
      <p>{t('lifecycle.activate.intro', { email })}</p>
      <CredentialsForm email={email} submitLabel={t('lifecycle.activate.submit')} submit={activate} />
    </Page>
  );
}
