import type { RegisterResponse } from '@keycard/contract/lifecycle';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { flowStorage, loginStateKey, randomState } from '../../../lib/storage.ts';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import type { Credentials } from '../shared/credentials-form.tsx';
import {
  type FormOutcome,
  formOutcome,
  lifecycleOutcome,
  registrationErrors,
} from '../shared/lifecycle-errors.ts';

export type RegistrationState = { email: string } | 'checking' | 'invalid' | 'signing-in';

/**
 * /register/?redirectUri&token: checks the link, then takes the password and the secret
 * question. Afterwards the person is signed in with the new password (the login API, as the
 * login page does) and continues to redirectUri, which /authenticated hands to the server.
 * A dead link (invalid, or its address has an account already) is said on the page.
 */
export function useRegistration() {
  const navigate = useNavigate();
  const params = useSearchParams();
  const token = params.get('token');
  const redirectUri = params.get('redirectUri');
  const [state, setState] = useState<RegistrationState>('checking');

  useEffect(() => {
    if (!token) {
      setState('invalid');
      return;
    }
    let cancelled = false;
    accountApi
      .validateRegistration(token)
      .then((answer) => !cancelled && setState({ email: answer.email }))
      .catch((caught: unknown) => {
        if (cancelled) return;
        if (lifecycleOutcome(registrationErrors, caught).kind === 'deadLink') setState('invalid');
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
    const answer = await accountApi.login(email, password, loginState).catch(() => null);
    if (answer) {
      navigate(`${paths.authenticate}?${new URLSearchParams({ code: answer.code, state: answer.state })}`, {
        replace: true,
      });
    } else {
      // The account exists: any failure to sign in leaves the person at the login, told so.
      const query = new URLSearchParams({ activateSuccess: 'true', newSession: 'true', email });
      navigate(`${paths.login}?${query}`, { replace: true });
    }
  }

  async function register(credentials: Credentials): Promise<FormOutcome> {
    let answer: RegisterResponse;
    try {
      const recaptchaToken = await captchaToken('SIGNUP');
      answer = await accountApi.register({ token: token as string, ...credentials, recaptchaToken });
    } catch (caught) {
      return formOutcome(lifecycleOutcome(registrationErrors, caught), (outcome) => {
        if (outcome.kind === 'deadLink') setState('invalid');
        else navigate(paths.error, { replace: true });
      });
    }
    setState('signing-in');
    await signIn(answer.email, credentials.password);
    return null;
  }

  return { state, register };
}
