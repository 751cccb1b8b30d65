import { errorCodes } from '@keycard/contract/errors';
import { lifecycleTokenTtl } from '@keycard/contract/lifecycle-api';
import { paths } from '@keycard/contract/paths';
import { useState } from 'react';
import { isNetworkError } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Link, useNavigate } from '../../lib/router.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { accountApi } from './api.ts';
import { codeOf } from './outcomes.ts';
import './account.css';

/**
 * SPEC §2 e-mail verification on /authenticated: the prompt with send-verification, then
 * check-your-inbox with a did-not-receive button that returns to the prompt. The sign-in
 * goes on from the mailed link (its page sends the browser back to /authenticated).
 */
export function EmailVerificationPrompt({ email }: { email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sent, setSent] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hours = lifecycleTokenTtl.verificationHours;

  async function send() {
    setPending(true);
    setNotice(null);
    try {
      await accountApi.sendVerification(email);
      setSent(true);
    } catch (caught) {
      if (isNetworkError(caught)) setNotice('common.networkError');
      else if (codeOf(caught) === errorCodes.rateLimited) setNotice('lifecycle.errors.rateLimited');
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
      {notice ? <Notice tone="error">{t(notice)}</Notice> : null}
      <p>{t('lifecycle.verificationPrompt.body', { email, hours })}</p>
      <div className="kc-actions">
        <button type="button" className="kc-button" onClick={send} disabled={pending} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('lifecycle.verificationPrompt.send')}</PendingLabel>
        </button>
      </div>
      {logout}
    </Page>
  );
}
