import type { FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Loader, LoadingPage, Page, PendingLabel } from '../../../ui/page.tsx';
import { useVerifyEmail } from './use-email-verification.ts';

/** /verify-email/?token — confirm the address a verification link was sent to (use-email-verification.ts). */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const emailField = useEmailField('');
  const { state, notice, pending, verify, clearNotice } = useVerifyEmail(emailField);

  function submit(event: FormEvent) {
    event.preventDefault();
    clearNotice();
    const address = emailField.check();
    if (address) void verify(address);
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
