import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import type { Credentials } from '../shared/credentials-form.tsx';
import {
  activationErrors,
  type FormOutcome,
  formOutcome,
  type LifecycleOutcome,
  lifecycleOutcome,
} from '../shared/lifecycle-errors.ts';
import { useMailRequest } from '../shared/use-mail-request.ts';
import { useSessionCheck } from '../shared/use-session-check.ts';

/** Where a refusal the form does not show goes: a dead link to activate-expired. */
function leaveFor(outcome: LifecycleOutcome): string {
  return outcome.kind === 'deadLink' ? paths.activateExpired : paths.error;
}

/**
 * /activate/?token: checks the link (once nobody is signed in), then sets the password and
 * the secret question and goes on to the login with the account's address.
 */
export function useActivation() {
  const navigate = useNavigate();
  const token = useSearchParams().get('token');
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
      .catch((caught: unknown) => {
        if (!cancelled) navigate(leaveFor(lifecycleOutcome(activationErrors, caught)), { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, session, navigate]);

  async function activate(credentials: Credentials): Promise<FormOutcome> {
    let answer: { email: string };
    try {
      const recaptchaToken = await captchaToken('SIGNUP');
      answer = await accountApi.activate({ token: token as string, ...credentials, recaptchaToken });
    } catch (caught) {
      return formOutcome(lifecycleOutcome(activationErrors, caught), (outcome) =>
        navigate(leaveFor(outcome), { replace: true }),
      );
    }
    const query = new URLSearchParams({ activateSuccess: 'true', newSession: 'true', email: answer.email });
    navigate(`${paths.login}?${query}`, { replace: true });
    return null;
  }

  return { session, email, activate };
}

/** /error/activate-expired/: sends a new activation link, then says it is on its way. */
export function useActivationResend() {
  const navigate = useNavigate();
  const { send, ...request } = useMailRequest();
  async function resend(address: string): Promise<void> {
    const answer = await send(async () => accountApi.resendActivation(address, await captchaToken('SIGNUP')));
    if (answer) navigate(paths.activateSent);
  }
  return { ...request, resend };
}
