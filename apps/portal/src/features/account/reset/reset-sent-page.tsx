import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { Link, useLocation, useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { useBranding } from '../../../lib/branding.tsx';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { captchaToken } from '../shared/captcha.ts';
import { commonOutcome } from '../shared/outcomes.ts';
import { RefusalNotice, useRefusal } from '../shared/refusal-notice.tsx';
import '../shared/account.css';

/** /reset-password/sent — offer to send the mail again; the trouble-logging-in link if configured. */
export function ResetSentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = (useLocation().state as { email?: string } | null)?.email;
  const helpUrl = useBranding()?.theme.links.loginHelpUrl;
  const [resent, setResent] = useState(false);
  const { refusal, seconds, waiting, refuse, clear } = useRefusal();
  const [pending, setPending] = useState(false);
  const minutes = lifecycleTokenTtl.resetMinutes;

  async function resend() {
    if (!email) return;
    setPending(true);
    setResent(false);
    clear();
    try {
      const answer = await accountApi.requestReset(email, await captchaToken('PASSWORD_RESET'));
      if (answer.state === 'activate') navigate(paths.activateSent);
      else setResent(true);
    } catch (caught) {
      const outcome = commonOutcome(caught);
      if (outcome && 'notice' in outcome) refuse(outcome.notice, outcome.wait);
      else navigate(paths.error);
    } finally {
      setPending(false);
    }
  }

  return (
    <Page titleKey="lifecycle.titles.resetPasswordSent" heading={t('lifecycle.resetSent.heading')}>
      {resent ? <Notice tone="success">{t('lifecycle.resetSent.resent')}</Notice> : null}
      <RefusalNotice refusal={refusal} seconds={seconds} />
      <p>
        {email
          ? t('lifecycle.resetSent.body', { email, minutes })
          : t('lifecycle.resetSent.bodyWithoutEmail', { minutes })}
      </p>
      <div className="kc-actions">
        {email ? (
          <button
            type="button"
            className="kc-button"
            onClick={resend}
            disabled={pending || waiting}
            aria-busy={pending}
          >
            <PendingLabel pending={pending}>{t('lifecycle.resetSent.resend')}</PendingLabel>
          </button>
        ) : (
          <Link className="kc-button" to={paths.resetPassword}>
            {t('lifecycle.resetSent.resend')}
          </Link>
        )}
      </div>
      <div className="kc-links">
        {helpUrl ? (
          <a className="kc-link" href={helpUrl} target="_blank" rel="noopener noreferrer">
            {t('lifecycle.resetSent.trouble')}
          </a>
        ) : null}
        <Link className="kc-link" to={paths.login}>
          {t('common.backToLogin')}
        </Link>
      </div>
    </Page>
  );
}
