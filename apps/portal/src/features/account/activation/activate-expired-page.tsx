import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { commonOutcome } from '../shared/outcomes.ts';
import { RefusalNotice, useRefusal } from '../shared/refusal-notice.tsx';
import { SupportLinks } from '../shared/support-links.tsx';

/** /error/activate-expired/ — re-ask the e-mail and send a new activation link. */
export function ActivateExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const emailField = useEmailField('');
  const { refusal, seconds, waiting, refuse, clear } = useRefusal();
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    const address = emailField.check();
    if (!address) return;
    setPending(true);
    try {
      await accountApi.resendActivation(address, await captchaToken('SIGNUP'));
      navigate(paths.activateSent);
    } catch (caught) {
      setPending(false);
      const outcome = commonOutcome(caught);
      if (outcome && 'notice' in outcome) refuse(outcome.notice, outcome.wait);
      else navigate(paths.error);
    }
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
