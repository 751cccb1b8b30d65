import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import type { PortalTextKey } from '../../../lib/i18n.tsx';
import type { EmailFieldState } from '../../../ui/email-field.tsx';
import { accountApi } from '../shared/api.ts';
import { lifecycleOutcome, verificationMailErrors, verifyEmailErrors } from '../shared/lifecycle-errors.ts';
import { useMailRequest } from '../shared/use-mail-request.ts';

/** How long the success message shows before the automatic redirect. */
const redirectDelayMs = 2500;

/** The homepage must be on this origin; anything else falls back to /authenticated. */
export function sameOriginOr(url: string, origin: string): string {
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.href : paths.authenticated;
  } catch {
    return paths.authenticated;
  }
}

/**
 * /verify-email/?token: the link is checked first (any failure goes to verify-expired), then
 * the person confirms the address; on success a message shows and the browser moves on to
 * the returned homepage. A refusal is handled by the flow's table (verifyEmailErrors).
 */
export function useVerifyEmail(emailField: EmailFieldState) {
  const navigate = useNavigate();
  const token = useSearchParams().get('token');
  const [state, setState] = useState<'checking' | 'form' | 'verified'>('checking');
  const [notice, setNotice] = useState<PortalTextKey | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!token) {
      navigate(paths.verifyExpired, { replace: true });
      return;
    }
    let cancelled = false;
    accountApi
      .validateVerification(token)
      .then(() => !cancelled && setState('form'))
      .catch(() => !cancelled && navigate(paths.verifyExpired, { replace: true }));
    return () => {
      cancelled = true;
    };
  }, [token, navigate]);

  async function verify(address: string): Promise<void> {
    setNotice(null);
    setPending(true);
    let homepageUrl: string;
    try {
      ({ homepageUrl } = await accountApi.verifyEmail(address, token as string));
    } catch (caught) {
      setPending(false);
      const outcome = lifecycleOutcome(verifyEmailErrors, caught);
      if (outcome.kind === 'address') {
        emailField.setError(outcome.key);
        emailField.inputRef.current?.focus();
      } else if (outcome.kind === 'notice') {
        setNotice(outcome.key);
      } else {
        navigate(outcome.kind === 'deadLink' ? paths.verifyExpired : paths.error, { replace: true });
      }
      return;
    }
    setState('verified');
    setTimeout(
      () => window.location.assign(sameOriginOr(homepageUrl, window.location.origin)),
      redirectDelayMs,
    );
  }

  return { state, notice, pending, verify, clearNotice: () => setNotice(null) };
}

/**
 * SPEC §2 e-mail verification on /authenticated: sends the verification mail, then says to
 * check the inbox; "did not receive" returns to the prompt. Verification mails are limited
 * per account (verificationMailErrors).
 */
export function useVerificationMail(email: string) {
  const { send, settle, ...request } = useMailRequest({ table: verificationMailErrors, replace: true });
  const [sent, setSent] = useState(false);
  async function sendMail(): Promise<void> {
    const answer = await send(() => accountApi.sendVerification(email));
    settle();
    if (answer) setSent(true);
  }
  return { ...request, sent, sendMail, again: () => setSent(false) };
}
