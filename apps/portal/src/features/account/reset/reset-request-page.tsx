import { paths } from '@keycard/contract/paths';
import { Link, useSearchParams } from '@keycard/web/router';
import type { FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { lastUser } from '../../../lib/storage.ts';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { RefusalNotice } from '../shared/refusal-notice.tsx';
import { useResetRequest } from './use-reset.ts';
import '../shared/account.css';

/** /reset-password/?email&tokenExpired — ask for a reset mail (use-reset.ts). */
export function ResetRequestPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const emailField = useEmailField(params.get('email') ?? lastUser.get() ?? '');
  const { refusal, seconds, waiting, pending, requestMail, clear } = useResetRequest();

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    const address = emailField.check();
    if (!address) return;
    await requestMail(address);
  }

  return (
    <Page titleKey="lifecycle.titles.resetPassword" heading={t('lifecycle.resetRequest.heading')}>
      {params.has('tokenExpired') ? (
        <Notice tone="error">{t('lifecycle.resetRequest.tokenExpired')}</Notice>
      ) : null}
      <RefusalNotice refusal={refusal} seconds={seconds} />
      <p>{t('lifecycle.resetRequest.intro')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField field={emailField} label={t('lifecycle.resetRequest.email')} />
        <button className="kc-button" type="submit" disabled={pending || waiting} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('lifecycle.resetRequest.submit')}</PendingLabel>
        </button>
      </form>
      <div className="kc-links">
        <Link className="kc-link" to={paths.login}>
          {t('common.backToLogin')}
        </Link>
      </div>
    </Page>
  );
}
