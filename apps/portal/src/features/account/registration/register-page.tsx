import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { flowStorage, loginStateKey, randomState } from '../../../lib/storage.ts';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { type Credentials, CredentialsForm } from '../shared/credentials-form.tsx';
import { commonOutcome, type FormOutcome } from '../shared/outcomes.ts';
import { SupportLinks } from '../shared/support-links.tsx';

/**
 * /register/?redirectUri&token — the activation form for a registration link. Afterwards
 * the person is signed in with the new password (the login API, as the login page does) and
 * continues to redirectUri, which /authenticated hands to the server to check.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const token = params.get('token');
  const redirectUri = params.get('redirectUri');
  const [state, setState] = useState<{ email: string } | 'checking' | 'invalid' | 'signing-in'>('checking');

  useEffect(() => {
    if (!token) {
      setState('invalid');
      return;
    }
    let cancelled = false;
    accountApi
      .validateRegistration(token)
      .then((answer) => !cancelled && setState({ email: answer.email }))
      .catch((error) => {
        if (cancelled) return;
        // SPEC §7: 403 means the link is invalid (409: its address has an account already).
        const status = (error as { status?: number }).status;
        if (status === 403 || status === 409) setState('invalid');
        else navigate(paths.error, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, navigate]);

  async function signIn(email: string, password: string) {
    const loginState = randomState();
    flowStorage.set(loginStateKey, loginState);
    // A new flow: this link's redirect, not an app request left over in this tab.
    flowStorage.remove(storageKeys.iid);
    if (redirectUri) flowStorage.set(storageKeys.redirectUri, redirectUri);
    else flowStorage.remove(storageKeys.redirectUri);
    try {
      const answer = await accountApi.login(email, password, loginState);
      navigate(`${paths.authenticate}?${new URLSearchParams({ code: answer.code, state: answer.state })}`, {
        replace: true,
      });
    } catch {
      const query = new URLSearchParams({ activateSuccess: 'true', newSession: 'true', email });
      navigate(`${paths.login}?${query}`, { replace: true });
    }
  }

  async function register(credentials: Credentials): Promise<FormOutcome> {
    try {
      const recaptchaToken = await captchaToken('SIGNUP');
      const answer = await accountApi.register({ token: token as string, ...credentials, recaptchaToken });
      setState('signing-in');
      await signIn(answer.email, credentials.password);
      return null;
    } catch (error) {
      const outcome = commonOutcome(error);
      if (outcome) return outcome;
      const status = (error as { status?: number }).status;
      if (status === 403 || status === 409) setState('invalid');
      else navigate(paths.error, { replace: true });
      return null;
    }
  }

  if (state === 'checking' || state === 'signing-in') {
    const label = state === 'checking' ? 'lifecycle.register.checking' : 'lifecycle.register.signingIn';
    return <LoadingPage titleKey="lifecycle.titles.register" label={t(label)} />;
  }
  if (state === 'invalid') {
    return (
      <Page titleKey="lifecycle.titles.register" heading={t('lifecycle.register.invalid.heading')}>
        <p>{t('lifecycle.register.invalid.body')}</p>
        <SupportLinks />
      </Page>
    );
  }
  return (
    <Page titleKey="lifecycle.titles.register" heading={t('lifecycle.register.heading')}>
      <p>{t('lifecycle.register.intro', { email: state.email })}</p>
      <CredentialsForm email={state.email} submitLabel={t('lifecycle.register.submit')} submit={register} />
    </Page>
  );
}
