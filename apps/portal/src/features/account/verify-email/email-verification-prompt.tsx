import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { RefusalNotice } from '../shared/refusal-notice.tsx';
import { useVerificationMail } from './use-email-verification.ts';
import '../shared/account.css';
import { TextWithEmail } from '../../../ui/email-text.tsx';

/**
 * SPEC §2 e-mail verification on /authenticated: the prompt with send-verification, then
 * check-your-inbox with a did-not-receive button that returns to the prompt. The sign-in
 * goes on from the mailed link (its page sends the browser back to /authenticated).
 */
export function EmailVerificationPrompt({ email }: { email: string }) {
  const { t } = useTranslation();
  const { refusal, seconds, waiting, pending, sent, sendMail, again } = useVerificationMail(email);
  const hours = lifecycleTokenTtl.verificationHours;

  const logout = (
    <div className="kc-links">
      <Link className="kc-link" to={paths.logout}>
        {t('lifecycle.verificationPrompt.logout')}
      </Link>
    </div>
  );

  if (sent) {
    return (
      // A new key: the new screen's heading takes focus, as after a navigation.
      <Page
        key="sent"
        titleKey="lifecycle.titles.verifyEmail"
        heading={t('lifecycle.verificationPrompt.sentHeading')}
      >
        <Notice tone="success">
          <TextWithEmail text={t('lifecycle.verificationPrompt.sentBody', { email })} email={email} />
        </Notice>
        <div className="kc-actions">
          <button type="button" className="kc-button kc-button-secondary" onClick={again}>
            {t('lifecycle.verificationPrompt.notReceived')}
          </button>
        </div>
        {logout}
      </Page>
    );
  }
  return (
    <Page
      key="prompt"
      titleKey="lifecycle.titles.verifyEmail"
      heading={t('lifecycle.verificationPrompt.heading')}
    >
      <RefusalNotice refusal={refusal} seconds={seconds} />
      <p>
        <TextWithEmail text={t('lifecycle.verificationPrompt.body', { email, count: hours })} email={email} />
      </p>
      <div className="kc-actions">
        <button
          type="button"
          className="kc-button"
          onClick={sendMail}
          disabled={pending || waiting}
          aria-busy={pending}
        >
          <PendingLabel pending={pending}>{t('lifecycle.verificationPrompt.send')}</PendingLabel>
        </button>
      </div>
      {logout}
    </Page>
  );
}
