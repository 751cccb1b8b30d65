import { locales } from '@keycard/contract/user-state';
import { Link, Outlet, useLocation } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { signOut } from '../lib/auth.ts';
import { languageNames, useTranslation } from '../lib/i18n.tsx';
import { consolePaths } from '../lib/paths.ts';
import { useSession } from '../lib/session.tsx';
import { errorText } from '../ui/result.tsx';

/** Moves focus to the new page's heading after an in-app navigation (not on the first load). */
function useFocusHeadingOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new address
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [pathname]);
}

export function Layout() {
  const { t, language, translator } = useTranslation();
  const { me, can, error, retry } = useSession();
  const { pathname } = useLocation();
  useFocusHeadingOnNavigation();
  // On a phone the navigation and the account controls fold behind a Menu button.
  const [menuOpen, setMenuOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on each new address
  useEffect(() => setMenuOpen(false), [pathname]);
  const current = (active: boolean) => (active ? ('page' as const) : undefined);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipLink')}
      </a>
      <header className="top">
        <p className="brand">{t('app.title')}</p>
        <button
          type="button"
          className="menu-button button-secondary"
          aria-expanded={menuOpen}
          aria-controls="top-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {t('shell.menu')}
        </button>
        <div id="top-menu" className={menuOpen ? 'top-menu open' : 'top-menu'}>
          <nav aria-label={t('app.navLabel')}>
            <ul>
              <li>
                <Link
                  to={consolePaths.home}
                  aria-current={current(
                    !pathname.startsWith(consolePaths.audit) && !pathname.startsWith(consolePaths.operators),
                  )}
                >
                  {t('app.nav.tenants')}
                </Link>
              </li>
              {can('audit.read') && (
                <li>
                  <Link
                    to={consolePaths.audit}
                    aria-current={current(pathname.startsWith(consolePaths.audit))}
                  >
                    {t('app.nav.audit')}
                  </Link>
                </li>
              )}
              {can('operators.manage') && (
                <li>
                  <Link
                    to={consolePaths.operators}
                    aria-current={current(pathname.startsWith(consolePaths.operators))}
                  >
                    {t('app.nav.operators')}
                  </Link>
                </li>
              )}
            </ul>
          </nav>
          <div className="account">
            {me && (
              <p className="who">
                {t('app.signedInAs', {
                  name: me.email ?? me.operator.subject,
                  role: t(`roles.${me.operator.role}`),
                })}
              </p>
            )}
            <label className="language">
              <span>{t('app.language')}</span>
              <select
                value={language}
                onChange={(event) => {
                  const chosen = locales.find((locale) => locale === event.target.value);
                  if (chosen) void translator.use(chosen);
                }}
              >
                {locales.map((locale) => (
                  <option key={locale} value={locale} lang={locale}>
                    {languageNames[locale]}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="button-secondary" onClick={() => void signOut()}>
              {t('app.signOut')}
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {/* Who the operator is could not be learnt (a limit, an outage): said, and nothing is offered. */}
        <div className="session-problem">
          <p role="alert" className={error ? 'notice notice-error' : 'notice-empty'}>
            {error ? errorText(t, error) : ''}
          </p>
          {error ? (
            <button type="button" className="button-secondary" onClick={retry}>
              {t('app.tryAgain')}
            </button>
          ) : null}
        </div>
        <Outlet />
      </main>
    </>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <h1 tabIndex={-1}>{t('app.notFound')}</h1>
      <p>
        <Link to={consolePaths.home}>{t('app.backHome')}</Link>
      </p>
    </>
  );
}

export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <main id="main">
      <h1 tabIndex={-1}>{t('app.crashed')}</h1>
      <p>
        <a href={consolePaths.home}>{t('app.backHome')}</a>
      </p>
    </main>
  );
}
