import { lifecycleErrors } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { useNavigate, useSearchParams } from '@keycard/web/router';
import { type FormEvent, useEffect, useState } from 'react';
import { isNetworkError } from '../../../lib/api.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Loader, LoadingPage, Page, PendingLabel } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { codeOf, statusOf } from '../shared/outcomes.ts';

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
  const params = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'checking' | 'form' | 'verified'>('checking');
  const emailField = useEmailField('');
  const [notice, setNotice] = useState<string | null>(null);
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

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const address = emailField.check();
    if (!address) return;
    setPending(true);
    try {
      const { homepageUrl } = await accountApi.verifyEmail(address, token as string);
      setState('verified');
      setTimeout(() => window.location.assign(sameOriginOr(homepageUrl)), redirectDelayMs);
    } catch (caught) {
      setPending(false);
      if (codeOf(caught) === lifecycleErrors.verifyEmailInvalid) {
        emailField.setError('lifecycle.verifyEmail.mismatch');
        emailField.inputRef.current?.focus();
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
        <EmailField field={emailField} label={t('lifecycle.verifyEmail.email')} autoComplete="email" />
        <button className="kc-button" type="submit" disabled={pending} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('lifecycle.verifyEmail.submit')}</PendingLabel>
        </button>
      </form>
    </Page>
  );
}
