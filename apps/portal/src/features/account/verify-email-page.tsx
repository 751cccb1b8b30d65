import { lifecycleErrors } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isNetworkError } from '../../lib/api.ts';
import { Notice, TextField } from '../../ui/fields.tsx';
import { Loader, LoadingPage, Page } from '../../ui/page.tsx';
import { accountApi } from './api.ts';
import { emailProblem } from './email-field.ts';
import { codeOf, statusOf } from './outcomes.ts';

/** How long the success message shows before the automatic redirect. */
const redirectDelayMs = 2500;

/** The homepage must be on this origin; anything else falls back to /authenticated. */
function sameOriginOr(url: string): string {
  try {
    const target = new URL(url, window.location.origin);
    return target.origin === window.location.origin ? target.href : paths.authenticated;
  } catch {
    return paths.authenticated;
  }
}

/**
 * /verify-email/?token — the link is checked first (failures go to verify-expired), then the
 * person confirms the address; on success a message shows and the browser moves on to the
 * returned homepage. SPEC §8: EmailInValid (400) shows the mismatch message.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'checking' | 'form' | 'verified'>('checking');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

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

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailProblem(email);
    setError(problem);
    setNotice(null);
    if (problem) {
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    try {
      const { homepageUrl } = await accountApi.verifyEmail(email.trim(), token as string);
      setState('verified');
      setTimeout(() => window.location.assign(sameOriginOr(homepageUrl)), redirectDelayMs);
    } catch (caught) {
      setPending(false);
      if (codeOf(caught) === lifecycleErrors.verifyEmailInvalid) {
        setError('lifecycle.verifyEmail.mismatch');
        inputRef.current?.focus();
      } else if (isNetworkError(caught)) {
        setNotice('common.networkError');
      } else if ([403, 409, 410].includes(statusOf(caught))) {
        navigate(paths.verifyExpired, { replace: true });
      } else {
        navigate(paths.error, { replace: true });
      }
    }
  }

  if (state === 'checking') {
    return (
      <LoadingPage titleKey="lifecycle.titles.verifyEmail" label={t('lifecycle.verifyEmail.checking')} />
    );
  }
  if (state === 'verified') {
    return (
      <Page
        key="verified"
        titleKey="lifecycle.titles.verifyEmail"
        heading={t('lifecycle.verifyEmail.heading')}
      >
        <Notice tone="success">{t('lifecycle.verifyEmail.success')}</Notice>
        <Loader label={t('common.loading')} />
      </Page>
    );
  }
  return (
    <Page titleKey="lifecycle.titles.verifyEmail" heading={t('lifecycle.verifyEmail.heading')}>
      {notice ? <Notice tone="error">{t(notice)}</Notice> : null}
      <p>{t('lifecycle.verifyEmail.intro')}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('lifecycle.verifyEmail.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          inputRef={inputRef}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(emailProblem(event.target.value));
          }}
          onBlur={() => setError(emailProblem(email))}
          error={error ? t(error) : undefined}
        />
        <button className="kc-button" type="submit" disabled={pending}>
          {t('lifecycle.verifyEmail.submit')}
        </button>
      </form>
    </Page>
  );
}
