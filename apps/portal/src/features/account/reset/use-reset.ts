import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import {
  type FormOutcome,
  formOutcome,
  type LifecycleOutcome,
  lifecycleOutcome,
  resetErrors,
} from '../shared/lifecycle-errors.ts';
import { useMailRequest } from '../shared/use-mail-request.ts';
import { useSessionCheck } from '../shared/use-session-check.ts';

const requestReset = async (address: string) =>
  accountApi.requestReset(address, await captchaToken('PASSWORD_RESET'));

/**
 * /reset-password/: asks for a reset mail. SPEC §4: the 'activate' answer (an account not
 * activated yet) goes to the activation-sent page, anything else to reset-sent.
 */
export function useResetRequest() {
  const navigate = useNavigate();
  const { send, ...request } = useMailRequest();
  async function requestMail(address: string): Promise<void> {
    const answer = await send(() => requestReset(address));
    if (answer?.state === 'activate') navigate(paths.activateSent);
    else if (answer) navigate(paths.resetPasswordSent, { state: { email: address } });
  }
  return { ...request, requestMail };
}

/** /reset-password/sent: sends the mail again and says so (or on to activation-sent). */
export function useResetResend(email: string | undefined) {
  const navigate = useNavigate();
  const { send, settle, ...request } = useMailRequest();
  const [resent, setResent] = useState(false);
  async function resend(): Promise<void> {
    if (!email) return;
    setResent(false);
    const answer = await send(() => requestReset(email));
    settle();
    if (answer?.state === 'activate') navigate(paths.activateSent);
    else if (answer) setResent(true);
  }
  return { ...request, resent, resend };
}

/**
 * /reset-password/update?token&email: both are required (else the unknown-error page). The
 * link is checked before the form, so nobody types a new password for a dead link; SPEC §8:
 * TokenNotFound (409) and TokenExpired (410) go back to the reset page with tokenExpired.
 */
export function useResetUpdate() {
  const navigate = useNavigate();
  const params = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const session = useSessionCheck();
  const [ready, setReady] = useState(false);

  const expiredPage = `${paths.resetPassword}?${new URLSearchParams({ tokenExpired: 'true', ...(email ? { email } : {}) })}`;
  const leaveFor = (outcome: LifecycleOutcome) => (outcome.kind === 'deadLink' ? expiredPage : paths.error);

  useEffect(() => {
    if (!token || !email) {
      navigate(paths.error, { replace: true });
      return;
    }
    if (session !== 'none') return;
    let cancelled = false;
    accountApi
      .validateReset(token)
      .then(() => !cancelled && setReady(true))
      .catch((caught: unknown) => {
        if (cancelled) return;
        const outcome = lifecycleOutcome(resetErrors, caught);
        navigate(outcome.kind === 'deadLink' ? expiredPage : paths.error, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, email, session, navigate, expiredPage]);

  async function reset(password: string): Promise<FormOutcome> {
    try {
      const recaptchaToken = await captchaToken('PASSWORD_RESET');
      await accountApi.applyReset({ token: token as string, password, recaptchaToken });
    } catch (caught) {
      return formOutcome(lifecycleOutcome(resetErrors, caught), (outcome) =>
        navigate(leaveFor(outcome), { replace: true }),
      );
    }
    const query = new URLSearchParams({ resetPassword: 'true', newSession: 'true', email: email as string });
    navigate(`${paths.login}?${query}`, { replace: true });
    return null;
  }

  return { session, ready, email, reset };
}
