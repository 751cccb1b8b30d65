import { errorCodes } from '@keycard/contract/errors';
import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { isNetworkError } from '../../../lib/api.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page, PendingLabel } from '../../../ui/page.tsx';
import { accountApi } from '../shared/api.ts';
import { codeOf, waitOf } from '../shared/outcomes.ts';
import { RefusalNotice, useRefusal } from '../shared/refusal-notice.tsx';
import '../shared/account.css';

/**
 * SPEC §2 e-mail verification on /authenticated: the prompt with send-verification, then
 * check-your-inbox with a did-not-receive button that returns to the prompt. The sign-in
 * goes on from the mailed link (its page sends the browser back to /authenticated).
 */
export function EmailVerificationPrompt({ email }: { email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sent, setSent] = useState(false);
  const { refusal, seconds, waiting, refuse, clear } = useRefusal();
  const [pending, setPending] = useState(false);
  const hours = lifecycleTokenTtl.verificationHours;

  async function send() {
    setPending(true);
    clear();
    try {
      await accountApi.sendVerification(email);
      setSent(true);
    } catch (caught) {
      if (isNetworkError(caught)) refuse('common.networkError');
      // Verification mails are limited per account (docs/accounts.md): say so, with the wait.
      else if (codeOf(caught) === errorCodes.rateLimited)
        refuse('lifecycle.errors.rateLimited', waitOf(caught, 'lifecycle.errors.rateLimitedVerification'));
      else navigate(paths.error, { replace: true });
    } finally {
      setPending(false);
    }
  }

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
        <Notice tone="success">{t('lifecycle.verificationPrompt.sentBody', { email })}</Notice>
        <div className="kc-actions">
          <button type="button" className="kc-button kc-button-secondary" onClick={() => setSent(false)}>
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
      <p>{t('lifecycle.verificationPrompt.body', { email, hours })}</p>
      <div className="kc-actions">
        <button
          type="button"
          className="kc-button"
          onClick={send}
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
