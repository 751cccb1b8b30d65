import { paths } from '@keycard/contract/paths';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Notice, TextField } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { accountApi } from './api.ts';
import { captchaToken } from './captcha.ts';
import { emailProblem } from './email-field.ts';
import { commonOutcome } from './outcomes.ts';
import { SupportLinks } from './support-links.tsx';

/** /error/activate-expired/ — re-ask the e-mail and send a new activation link. */
export function ActivateExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

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
      await accountApi.resendActivation(email.trim(), await captchaToken('SIGNUP'));
      navigate(paths.activateSent);
    } catch (caught) {
      setPending(false);
      const outcome = commonOutcome(caught);
      if (outcome && 'notice' in outcome) setNotice(outcome.notice);
      else navigate(paths.error);
    }
  }

  return (
    <Page titleKey="lifecycle.titles.activateExpired" heading={t('lifecycle.activateExpired.heading')}>
      {notice ? <Notice tone="error">{t(notice)}</Notice> : null}
      <p>{t('lifecycle.activateExpired.body')}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('lifecycle.activateExpired.email')}
          type="email"
          name="email"
          autoComplete="username"
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
          {t('lifecycle.activateExpired.submit')}
        </button>
      </form>
      <SupportLinks />
    </Page>
  );
}
