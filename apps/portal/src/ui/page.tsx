import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../app/theme.tsx';
import { usePageTitle } from '../app/use-page-title.ts';

/**
 * Every screen: the tenant header, one main landmark and one h1. The h1 takes focus when
 * the screen opens, so screen-reader users hear where they are after each navigation.
 */
export function Page({
  titleKey,
  heading,
  children,
}: {
  titleKey: string;
  heading: ReactNode;
  children?: ReactNode;
}) {
  usePageTitle(titleKey);
  const { t } = useTranslation();
  const branding = useBranding();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen (title) moves focus to its heading
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, [titleKey]);
  return (
    <div className="kc-shell">
      <header className="kc-header">
        {branding ? (
          <img
            className="kc-logo"
            src={branding.theme.images.logo}
            alt={t('common.logoAlt', { name: branding.theme.name })}
            height={40}
          />
        ) : (
          <span className="kc-logo-text">{t('common.appName')}</span>
        )}
      </header>
      <main className="kc-main" id="main">
        <section className="kc-card" aria-labelledby="kc-heading">
          <h1 id="kc-heading" ref={headingRef} tabIndex={-1}>
            {heading}
          </h1>
          {children}
        </section>
      </main>
    </div>
  );
}

export function Loader({ label }: { label: string }) {
  return (
    <div className="kc-loader" role="status" aria-live="polite">
      <span className="kc-spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A loading screen that still has its landmark and heading. */
export function LoadingPage({ titleKey, label }: { titleKey: string; label: string }) {
  return (
    <Page titleKey={titleKey} heading={label}>
      <Loader label={label} />
    </Page>
  );
}
