import type { AccountActivity } from '@keycard/contract/account';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { PendingLabel } from '../../ui/page.tsx';
import { browserLabel, formatDate, formatMoment } from './account-format.ts';
import { useConfirm } from './dialogs.tsx';
import { Section } from './sign-in-methods.tsx';
import type { AccountPage } from './use-account-page.ts';

export function SessionsSection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const others = page.sessions.filter((session) => !session.current);
  return (
    <Section page={page} section="sessions" heading={t('account.sessions.browsersHeading')}>
      <ul className="kc-account-list">
        {page.sessions.map((session) => {
          const browser = browserLabel(t, session.browser);
          const lastUsed = formatMoment(i18n.language, session.lastUsedAt);
          return (
            <li key={session.id} className="kc-account-item">
              <div className="kc-account-item-text">
                <strong>{browser}</strong>
                {session.current ? (
                  <span className="kc-account-badge">{t('account.sessions.thisBrowser')}</span>
                ) : null}
                <span>{t('account.sessions.lastUsed', { date: lastUsed })}</span>
                {session.ip ? <span>{t('account.sessions.address', { ip: session.ip })}</span> : null}
              </div>
              {session.current ? null : (
                <div className="kc-account-row-actions">
                  <button
                    type="button"
                    className="kc-button kc-button-secondary"
                    aria-label={t('account.sessions.signOutLabel', { browser, date: lastUsed })}
                    aria-busy={page.busy === `session-${session.id}`}
                    onClick={() =>
                      confirm.ask({
                        heading: t('account.sessions.confirmOne.heading'),
                        body: t('account.sessions.confirmOne.body', { browser }),
                        confirm: t('account.sessions.confirmOne.confirm'),
                        run: () => page.endSession(session.id, browser),
                      })
                    }
                  >
                    {t('account.sessions.signOut')}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {others.length > 0 ? (
        <button
          type="button"
          className="kc-button kc-button-secondary kc-account-inline"
          aria-busy={page.busy === 'sessions-others'}
          onClick={() =>
            confirm.ask({
              heading: t('account.sessions.confirmOthers.heading'),
              body: t('account.sessions.confirmOthers.body'),
              confirm: t('account.sessions.confirmOthers.confirm'),
              run: () => page.endOtherSessions(),
            })
          }
        >
          <PendingLabel pending={page.busy === 'sessions-others'}>
            {t('account.sessions.signOutOthers')}
          </PendingLabel>
        </button>
      ) : (
        <p>{t('account.sessions.onlyThis')}</p>
      )}
      {confirm.dialog}
    </Section>
  );
}

export function AppsSection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  return (
    <Section page={page} section="apps" heading={t('account.apps.heading')}>
      {page.apps.length === 0 ? <p>{t('account.apps.none')}</p> : null}
      <ul className="kc-account-list">
        {page.apps.map((app) => (
          <li key={app.clientId} className="kc-account-item">
            <div className="kc-account-item-text">
              <strong>{app.name}</strong>
              <span>
                {app.lastUsedAt
                  ? t('account.apps.lastUsed', { date: formatMoment(i18n.language, app.lastUsedAt) })
                  : t('account.apps.neverUsed')}
              </span>
            </div>
            <div className="kc-account-row-actions">
              <button
                type="button"
                className="kc-button kc-button-secondary"
                aria-label={t('account.apps.signOutLabel', { app: app.name })}
                onClick={() =>
                  confirm.ask({
                    heading: t('account.apps.confirm.heading', { app: app.name }),
                    body: t('account.apps.confirm.body', { app: app.name }),
                    confirm: t('account.apps.confirm.confirm'),
                    run: () => page.signOutOfApp(app.clientId, app.name),
                  })
                }
              >
                {t('account.apps.signOut')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {confirm.dialog}
    </Section>
  );
}

export function BrowsersSection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const mfa = page.overview?.mfa;
  if (!mfa || (mfa.factors.length === 0 && page.browsers.length === 0)) return null;
  return (
    <Section page={page} section="browsers" heading={t('account.browsers.heading')}>
      <p>{t('account.browsers.intro')}</p>
      {page.browsers.length === 0 ? <p>{t('account.browsers.none')}</p> : null}
      <ul className="kc-account-list">
        {page.browsers.map((browser) => {
          const since = formatDate(i18n.language, browser.createdAt);
          return (
            <li key={browser.id} className="kc-account-item">
              <div className="kc-account-item-text">
                <strong>
                  {browser.current
                    ? t('account.browsers.thisBrowser')
                    : t('account.browsers.otherBrowser', { date: since })}
                </strong>
                {browser.lastUsedAt ? (
                  <span>
                    {t('account.browsers.lastUsed', { date: formatDate(i18n.language, browser.lastUsedAt) })}
                  </span>
                ) : null}
                <span>
                  {t('account.browsers.until', { date: formatDate(i18n.language, browser.expiresAt) })}
                </span>
              </div>
              <div className="kc-account-row-actions">
                <button
                  type="button"
                  className="kc-button kc-button-secondary"
                  aria-label={t('account.browsers.forgetLabel', { date: since })}
                  onClick={() =>
                    confirm.ask({
                      heading: t('account.browsers.confirmOne.heading'),
                      body: t('account.browsers.confirmOne.body'),
                      confirm: t('account.browsers.confirmOne.confirm'),
                      run: () => page.forgetBrowser(browser.id),
                    })
                  }
                >
                  {t('account.browsers.forget')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {page.browsers.length > 1 ? (
        <button
          type="button"
          className="kc-button kc-button-secondary kc-account-inline"
          onClick={() =>
            confirm.ask({
              heading: t('account.browsers.confirmAll.heading'),
              body: t('account.browsers.confirmAll.body'),
              confirm: t('account.browsers.confirmAll.confirm'),
              run: () => page.forgetAllBrowsers(),
            })
          }
        >
          {t('account.browsers.forgetAll')}
        </button>
      ) : null}
      {confirm.dialog}
    </Section>
  );
}

/** What one line of recent activity says. */
export function activityText(t: Translate, item: AccountActivity): string {
  const factor = item.detail.factor ? t(`account.activity.factors.${item.detail.factor}`) : '';
  const name = item.detail.name ?? '';
  switch (item.kind) {
    case 'sign-in':
      if (item.detail.method === 'password') return t('account.activity.kinds.signInPassword');
      if (item.detail.method === 'passkey') return t('account.activity.kinds.signInPasskey');
      if (item.detail.method === 'partner') return t('account.activity.kinds.signInPartner');
      return t('account.activity.kinds.signIn');
    case 'sign-in-failed':
      return t('account.activity.kinds.signInFailed');
    case 'password-changed':
      return t('account.activity.kinds.passwordChanged');
    case 'password-reset':
      return t('account.activity.kinds.passwordReset');
    case 'factor-added':
      return t('account.activity.kinds.factorAdded', { factor });
    case 'factor-removed':
      return t('account.activity.kinds.factorRemoved', { factor });
    case 'passkey-added':
      return t('account.activity.kinds.passkeyAdded', { name });
    case 'passkey-removed':
      return t('account.activity.kinds.passkeyRemoved', { name });
    case 'recovery-codes-renewed':
      return t('account.activity.kinds.recoveryCodesRenewed');
    case 'partner-linked':
      return t('account.activity.kinds.partnerLinked', { name });
  }
}

export function ActivitySection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  return (
    <Section page={page} section="activity" level={2} heading={t('account.activity.heading')}>
      <p>{t('account.activity.intro')}</p>
      {page.activity.items.length === 0 ? <p>{t('account.activity.none')}</p> : null}
      <ol className="kc-account-list kc-account-activity">
        {page.activity.items.map((item) => (
          <li
            key={item.id}
            className={`kc-account-item${item.kind === 'sign-in-failed' ? ' kc-account-item-warning' : ''}`}
          >
            <div className="kc-account-item-text">
              <strong>{activityText(t, item)}</strong>
              <span>
                <time dateTime={new Date(item.at).toISOString()}>{formatMoment(i18n.language, item.at)}</time>
              </span>
              <span>
                {item.ip
                  ? t('account.activity.where', { browser: browserLabel(t, item.browser), ip: item.ip })
                  : browserLabel(t, item.browser)}
              </span>
            </div>
          </li>
        ))}
      </ol>
      {page.activity.next ? (
        <button
          type="button"
          className="kc-button kc-button-secondary kc-account-inline"
          aria-busy={page.busy === 'activity-more'}
          onClick={() => void page.moreActivity()}
        >
          <PendingLabel pending={page.busy === 'activity-more'}>{t('account.activity.more')}</PendingLabel>
        </button>
      ) : null}
    </Section>
  );
}
