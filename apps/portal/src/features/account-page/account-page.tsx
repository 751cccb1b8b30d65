import { useTranslation } from '../../lib/i18n.tsx';
import { Notice } from '../../ui/fields.tsx';
import { LoadingPage, Page } from '../../ui/page.tsx';
import { RecoveryCodesDialog, ReproofDialog } from './dialogs.tsx';
import { FactorsSection, PasskeysSection, PasswordSection, RecoverySection } from './sign-in-methods.tsx';
import { useAccountPage } from './use-account-page.ts';
import { ActivitySection, AppsSection, BrowsersSection, SessionsSection } from './where-signed-in.tsx';
import './account-page.css';
import { TextWithEmail } from '../../ui/email-text.tsx';

/** /account (docs/account.md): sign-in methods, where you are signed in, recent activity. */
export function AccountPage() {
  const { t } = useTranslation();
  const page = useAccountPage();

  if (page.failed) {
    return (
      <Page titleKey="account.titles.account" heading={t('account.page.heading')}>
        <Notice tone="error">{t('account.page.loadFailed')}</Notice>
        <button type="button" className="kc-button" onClick={() => window.location.reload()}>
          {t('account.page.retry')}
        </button>
      </Page>
    );
  }
  if (!page.overview)
    return <LoadingPage titleKey="account.titles.account" label={t('account.page.loading')} />;

  return (
    <Page titleKey="account.titles.account" heading={t('account.page.heading')}>
      <div className="kc-account">
        <div className="kc-identity">
          <span>
            <TextWithEmail
              text={t('account.page.signedInAs', { email: page.overview.email })}
              email={page.overview.email}
            />
          </span>
          <button type="button" className="kc-link kc-account-link-button" onClick={page.logOut}>
            {t('account.page.logOut')}
          </button>
        </div>
        <section className="kc-account-group" aria-labelledby="account-methods">
          <h2 id="account-methods">{t('account.methods.heading')}</h2>
          <PasswordSection page={page} />
          <PasskeysSection page={page} />
          <FactorsSection page={page} />
          <RecoverySection page={page} />
        </section>
        <section className="kc-account-group" aria-labelledby="account-where">
          <h2 id="account-where">{t('account.sessions.heading')}</h2>
          <SessionsSection page={page} />
          <AppsSection page={page} />
          <BrowsersSection page={page} />
        </section>
        <div className="kc-account-group">
          <ActivitySection page={page} />
        </div>
      </div>
      <ReproofDialog reproof={page.reproof} />
      <RecoveryCodesDialog codes={page.recoveryCodes} onClose={page.closeRecoveryCodes} />
    </Page>
  );
}
