import { paths } from '@keycard/contract/paths';
import { Link, useNavigate, useSearchParams } from '@keycard/web/router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { lastUser } from '../../../lib/storage.ts';
import { EmailField, useEmailField } from '../../../ui/email-field.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { commonOutcome } from '../shared/outcomes.ts';
import { RefusalNotice, useRefusal } from '../shared/refusal-notice.tsx';
import '../shared/account.css';

/**
 * /reset-password/?email&tokenExpired — ask for a reset mail. SPEC §4: the 'activate' answer
 * (an account not activated yet) goes to the activation-sent page, anything else to reset-sent.
 */
export function ResetRequestPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const emailField = useEmailField(params.get('email') ?? lastUser.get() ?? '');
  const { refusal, seconds, waiting, refuse, clear } = useRefusal();
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    const address = emailField.check();
    if (!address) return;
    setPending(true);
    try {
      const recaptchaToken = await captchaToken('PASSWORD_RESET');
      const answer = await accountApi.requestReset(address, recaptchaToken);
      if (answer.state === 'activate') navigate(paths.activateSent);
      else navigate(paths.resetPasswordSent, { state: { email: address } });
    } catch (caught) {
      setPending(false);
      const outcome = commonOutcome(caught);
      if (outcome && 'notice' in outcome) refuse(outcome.notice, outcome.wait);
      else navigate(paths.error);
    }
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
