import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { TextWithEmail } from '../../ui/email-text.tsx';
import { LoadingPage, Page } from '../../ui/page.tsx';
import { authenticatedApi } from './api.ts';

/**
 * /signed-in (docs/account.md): where a sign-in ends when no application asked for it and the
 * tenant names no default one. It says who is signed in, leads to the account page, and
 * offers the log-out; without a session it is the login page.
 */
export function SignedInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    authenticatedApi
      .session()
      .then((session) => {
        if (cancelled) return;
        if (session.exists) setEmail(session.identity.email);
        else navigate(paths.login, { replace: true });
      })
      .catch(() => {
        if (!cancelled) navigate(paths.error, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [navigate]);

  if (!email) return <LoadingPage titleKey="titles.authenticated" label={t('common.loading')} />;
  return (
    <Page titleKey="titles.authenticated" heading={t('account.landing.heading')}>
      <p>
        <TextWithEmail text={t('account.page.signedInAs', { email })} email={email} />
      </p>
      <p>{t('account.landing.intro')}</p>
      <Link className="kc-button" to={paths.account}>
        {t('account.landing.manage')}
      </Link>
      <div className="kc-links">
        <Link className="kc-link" to={paths.logout}>
          {t('account.page.logOut')}
        </Link>
      </div>
    </Page>
  );
}
