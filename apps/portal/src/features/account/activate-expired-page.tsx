import { paths } from '@keycard/contract/paths';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { useNavigate } from '../../lib/router.tsx';
import { EmailField, useEmailField } from '../../ui/email-field.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { accountApi } from './api.ts';
import { captchaToken } from './captcha.ts';
import { commonOutcome } from './outcomes.ts';
import { SupportLinks } from './support-links.tsx';

/** /error/activate-expired/ — re-ask the e-mail and send a new activation link. */
export function ActivateExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const emailField = useEmailField('');
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const address = emailField.check();
    if (!address) return;
    setPending(true);
    try {
      await accountApi.resendActivation(address, await captchaToken('SIGNUP'));
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
        <EmailField field={emailField} label={t('lifecycle.activateExpired.email')} />
        <button className="kc-button" type="submit" disabled={pending} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('lifecycle.activateExpired.submit')}</PendingLabel>
        </button>
      </form>
      <SupportLinks />
    </Page>
  );
}
