import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { Link, useLocation } from '@keycard/web/router';
import { useBranding } from '../../../lib/branding.tsx';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { RefusalNotice } from '../shared/refusal-notice.tsx';
import { useResetResend } from './use-reset.ts';
import '../shared/account.css';
import { TextWithEmail } from '../../../ui/email-text.tsx';

/** /reset-password/sent — offer to send the mail again; the trouble-logging-in link if configured. */
export function ResetSentPage() {
  const { t } = useTranslation();
  const email = (useLocation().state as { email?: string } | null)?.email;
  const helpUrl = useBranding()?.theme.links.loginHelpUrl;
  const { refusal, seconds, waiting, pending, resent, resend } = useResetResend(email);
  const minutes = lifecycleTokenTtl.resetMinutes;

  return (
    <Page titleKey="lifecycle.titles.resetPasswordSent" heading={t('lifecycle.resetSent.heading')}>
      {resent ? <Notice tone="success">{t('lifecycle.resetSent.resent')}</Notice> : null}
      <RefusalNotice refusal={refusal} seconds={seconds} />
      <p>
        {email ? (
          <TextWithEmail text={t('lifecycle.resetSent.body', { email, count: minutes })} email={email} />
        ) : (
          t('lifecycle.resetSent.bodyWithoutEmail', { count: minutes })
        )}
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
