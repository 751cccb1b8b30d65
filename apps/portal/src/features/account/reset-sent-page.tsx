import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { useState } from 'react';
import { useBranding } from '../../app/theme.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { Link, useLocation, useNavigate } from '../../lib/router.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { accountApi } from './api.ts';
import { captchaToken } from './captcha.ts';
import { commonOutcome } from './outcomes.ts';
import './account.css';

/** /reset-password/sent — offer to send the mail again; the trouble-logging-in link if configured. */
export function ResetSentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = (useLocation().state as { email?: string } | null)?.email;
  const helpUrl = useBranding()?.theme.links.loginHelpUrl;
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; key: string } | null>(null);
  const [pending, setPending] = useState(false);
  const minutes = lifecycleTokenTtl.resetMinutes;

  async function resend() {
    if (!email) return;
    setPending(true);
    setNotice(null);
    try {
      const answer = await accountApi.requestReset(email, await captchaToken('PASSWORD_RESET'));
      if (answer.state === 'activate') navigate(paths.activateSent);
      else setNotice({ tone: 'success', key: 'lifecycle.resetSent.resent' });
    } catch (caught) {
      const outcome = commonOutcome(caught);
      if (outcome && 'notice' in outcome) setNotice({ tone: 'error', key: outcome.notice });
      else navigate(paths.error);
    } finally {
      setPending(false);
    }
  }

  return (
    <Page titleKey="lifecycle.titles.resetPasswordSent" heading={t('lifecycle.resetSent.heading')}>
      {notice ? <Notice tone={notice.tone}>{t(notice.key)}</Notice> : null}
      <p>
        {email
          ? t('lifecycle.resetSent.body', { email, minutes })
          : t('lifecycle.resetSent.bodyWithoutEmail', { minutes })}
      </p>
      <div className="kc-actions">
        {email ? (
          <button type="button" className="kc-button" onClick={resend} disabled={pending} aria-busy={pending}>
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
