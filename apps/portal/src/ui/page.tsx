import { type ReactNode, useEffect, useRef } from 'react';
import { useBranding } from '../lib/branding.tsx';
import { type PortalTextKey, useTranslation } from '../lib/i18n.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { usePageTitle } from './use-page-title.ts';

/** The first field a person fills in: not hidden, disabled, read-only, a checkbox or a button. */
const firstFieldSelector = [
  'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not([disabled]):not([readonly]):not([hidden])',
  'select:not([disabled])',
  'textarea:not([disabled]):not([readonly])',
].join(', ');

/**
 * Every screen: one main landmark with the card (the tenant's logo in its top band, one h1)
 * and the language menu below. When the screen opens, focus goes to its first field, or to
 * the h1 when there is nothing to fill in.
 */
export function Page({
  titleKey,
  heading,
  children,
}: {
  titleKey: PortalTextKey;
  heading: ReactNode;
  children?: ReactNode;
}) {
  usePageTitle(titleKey);
  const { t } = useTranslation();
  const branding = useBranding();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen (title) moves focus
  useEffect(() => {
    // A screen that asks for something starts in its first field (the label is announced with
    // it); a screen with nothing to fill in starts at its heading, so a screen reader says
    // where it is.
    const field = cardRef.current?.querySelector<HTMLElement>(firstFieldSelector);
    (field ?? headingRef.current)?.focus({ preventScroll: true });
  }, [titleKey]);
  // The logo sits in the card's top band, on the tenant's primary colour it is drawn for.
  return (
    <div className="kc-shell">
      <main className="kc-main" id="main">
        <section className="kc-card" aria-labelledby="kc-heading" ref={cardRef}>
          <header className="kc-card-brand">
            {branding?.theme.images.logo ? (
              <img
                className="kc-logo"
                src={branding.theme.images.logo}
                alt={t('common.logoAlt', { name: branding.theme.name })}
                height={40}
              />
            ) : (
              // A theme without a logo shows its name (never a broken image).
              <span className="kc-logo-text">{branding?.theme.name ?? t('common.appName')}</span>
            )}
          </header>
          <h1 id="kc-heading" ref={headingRef} tabIndex={-1}>
            {heading}
          </h1>
          {children}
        </section>
      </main>
      <footer className="kc-footer">
        <LanguageMenu />
      </footer>
    </div>
  );
}

/**
 * A spinner with its status text. Where the text is already on screen (a loading page's
 * heading) it is kept for screen readers only, so it is not shown twice.
 */
export function Loader({ label, labelShown = true }: { label: string; labelShown?: boolean }) {
  return (
    <div className="kc-loader" role="status" aria-live="polite">
      <span className="kc-spinner" aria-hidden="true" />
      <span className={labelShown ? undefined : 'kc-visually-hidden'}>{label}</span>
    </div>
  );
}

/** A loading screen that still has its landmark and heading: one text, and a spinner. */
export function LoadingPage({ titleKey, label }: { titleKey: PortalTextKey; label: string }) {
  return (
    <Page titleKey={titleKey} heading={label}>
      <Loader label={label} labelShown={false} />
    </Page>
  );
}

/** A button's content while its action runs: a spinner before the unchanged label. */
export function PendingLabel({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <>
      {pending ? <span className="kc-spinner kc-spinner-small" aria-hidden="true" /> : null}
      {children}
    </>
  );
}
