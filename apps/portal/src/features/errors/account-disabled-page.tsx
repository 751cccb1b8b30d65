import { paths } from '@keycard/contract/paths';
import { Link, useLocation } from '@keycard/web/router';
import { useSecondsLeft } from '../../lib/duration.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import type { AccountDisabledState } from '../../lib/storage.ts';
import { Notice } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { WaitSentence } from '../../ui/wait-sentence.tsx';
import { SupportLink } from './error-pages.tsx';

// A lazy route of its own (its texts are core texts): the login route does not carry it, nor the
// countdown and the wait in words it draws.

/**
 * SPEC §8: too many attempts on the account, and a leaked password, come here. A lockout
 * arrives with when it ends (history state): the page says so in words, counts down, and
 * then says the password may be tried again.
 */
export function AccountDisabledPage() {
  const { t } = useTranslation();
  const { lockedUntil, email } = (useLocation().state as AccountDisabledState | null) ?? {};
  const seconds = useSecondsLeft(lockedUntil ?? 0);
  return (
    <Page titleKey="titles.accountDisabled" heading={t('errors.accountDisabled.heading')}>
      {lockedUntil === undefined ? (
        <p>{t('errors.accountDisabled.body')}</p>
      ) : seconds > 0 ? (
        <Notice tone="error">
          <WaitSentence textKey="login.limits.account" seconds={seconds} />
        </Notice>
      ) : (
        <Notice tone="info">{t('login.limits.ready')}</Notice>
      )}
      <Link
        className="kc-button"
        to={email ? `${paths.resetPassword}?${new URLSearchParams({ email })}` : paths.resetPassword}
      >
        {t('errors.accountDisabled.reset')}
      </Link>
      <div className="kc-links">
        <SupportLink />
        <Link className="kc-link" to={paths.login}>
          {t('common.backToLogin')}
        </Link>
      </div>
    </Page>
  );
}
