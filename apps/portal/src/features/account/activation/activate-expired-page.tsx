import type { FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { RefusalNotice } from '../shared/refusal-notice.tsx';
import { SupportLinks } from '../shared/support-links.tsx';
import { useActivationResend } from './use-activation.ts';

/** /error/activate-expired/ — re-ask the e-mail and send a new activation link. */
export function ActivateExpiredPage() {
  const { t } = useTranslation();
  const emailField = useEmailField('');
  const { refusal, seconds, waiting, pending, resend, clear } = useActivationResend();

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    const address = emailField.check();
    if (!address) return;
    await resend(address);
  }

  return (
    <Page titleKey="lifecycle.titles.activateExpired" heading={t('lifecycle.activateExpired.heading')}>
      <RefusalNotice refusal={refusal} seconds={seconds} />
      <p>{t('lifecycle.activateExpired.body')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField field={emailField} label={t('lifecycle.activateExpired.email')} />
        <button className="kc-button" type="submit" disabled={pending || waiting} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('lifecycle.activateExpired.submit')}</PendingLabel>
        </button>
      </form>
      <SupportLinks />
    </Page>
  );
}
