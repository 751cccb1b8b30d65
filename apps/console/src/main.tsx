import { type Router, RouterProvider } from '@keycard/web/router';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import './app/thai-font.css';
import './app/app.css';
import { NoAccessPage } from './app/no-access-page.tsx';
import { createRouter } from './app/router.tsx';
import {
  accessToken,
  completeSignIn,
  isAccessRefused,
  onAccessRefused,
  signedOutState,
  signIn,
} from './lib/auth.ts';
import { I18nProvider, initialLanguage, translator } from './lib/i18n.tsx';
import { consolePaths } from './lib/paths.ts';
import { SessionProvider } from './lib/session.tsx';

function SignInFailed() {
  const { t } = translator;
  return (
    <main id="main">
      <h1>{t('app.title')}</h1>
      <p role="alert">{t('app.signInFailed')}</p>
      <button type="button" onClick={() => void signIn(consolePaths.home)}>
        {t('app.tryAgain')}
      </button>
    </main>
  );
}

/** A busy state while the console talks to the sign-in (silent or not): never a blank page. */
function SigningIn() {
  const { t } = translator;
  return (
    <main id="main" className="boot">
      <h1 className="brand-line">{t('app.title')}</h1>
      <p role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> {t('app.signingIn')}
      </p>
    </main>
  );
}

/** After a sign-out the provider sends the browser back here: said, with the way back in. */
function SignedOut() {
  const { t } = translator;
  return (
    <main id="main" className="boot">
      <h1>{t('shell.signedOutHeading')}</h1>
      <p role="status">{t('shell.signedOut')}</p>
      <button type="button" onClick={() => void signIn(consolePaths.home)}>
        {t('shell.signInAgain')}
      </button>
    </main>
  );
}

/** The console, until the admin API refuses the account itself: then only that is said. */
function ConsoleRoot({ router }: { router: Router }) {
  const refused = useSyncExternalStore(onAccessRefused, isAccessRefused);
  if (refused) return <NoAccessPage />;
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}

async function start(): Promise<void> {
  await translator.use(initialLanguage());
  document.title = translator.t('app.title');
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const here = new URL(window.location.href);
  if (here.pathname === consolePaths.home && here.searchParams.get('state') === signedOutState) {
    window.history.replaceState(null, '', consolePaths.home);
    root.render(<SignedOut />);
    return;
  }
  if (window.location.pathname === consolePaths.callback) {
    root.render(<SigningIn />);
    try {
      const returnTo = await completeSignIn(new URL(window.location.href));
      window.history.replaceState(null, '', returnTo);
    } catch {
      window.history.replaceState(null, '', consolePaths.home);
      root.render(<SignInFailed />);
      return;
    }
  }
  // Every page needs an operator: without a token, sign in first (and come back here).
  if (!accessToken()) {
    root.render(<SigningIn />);
    await signIn();
    return;
  }
  const router = createRouter();
  await router.ready;
  root.render(
    <StrictMode>
      <I18nProvider>
        <ConsoleRoot router={router} />
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
