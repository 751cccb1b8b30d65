import { useEffect, useRef } from 'react';
import { signOut } from '../lib/auth.ts';
import { useTranslation } from '../lib/i18n.tsx';

/**
 * What an account that signs in but is refused by the admin API sees (not an operator, or
 * removed as one): the reason and a way out, instead of another sign-in that would only be
 * refused again. Sign out ends the provider's session, so another account can sign in.
 */
export function NoAccessPage() {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <header className="top">
        <p className="brand">{t('app.title')}</p>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {t('noAccess.heading')}
        </h1>
        <p>{t('noAccess.explanation')}</p>
        <button type="button" onClick={() => void signOut()}>
          {t('app.signOut')}
        </button>
      </main>
    </>
  );
}
