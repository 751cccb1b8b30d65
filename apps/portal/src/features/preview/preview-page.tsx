import type { Theme } from '@keycard/contract/api';
import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import type { PreviewDraftMessage, PreviewScreen } from '@keycard/contract/preview';
import type { Locale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import { RouterProvider, useParams } from '@keycard/web/router';
import { type ComponentType, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { BrandingProvider, useBranding } from '../../lib/branding.tsx';
import { applyTextOverrides, I18nProvider, Translator, useTranslator } from '../../lib/i18n.tsx';
import { createFixtureRouter } from './fixture-router.ts';
import { sampleEmail, sampleMfaStatus } from './fixtures.ts';
import { makePreviewInert } from './inert-preview.ts';
import { showPreviewFont } from './preview-font.ts';
import { postToConsole, toPreviewScreen, trustedDraft } from './preview-messages.ts';

/**
 * The real screens the preview draws, handed in by the app (app/router.tsx): a feature does
 * not import another, and these come from the login, account, MFA and errors features.
 */
export interface PreviewParts {
  LoginPage: ComponentType;
  LoginPasswordPage: ComponentType;
  ResetRequestPage: ComponentType;
  VerifyScreen: ComponentType<{ status: MfaStatusResponse }>;
  AccountDisabledPage: ComponentType;
  NotFoundPage: ComponentType;
  /** How the portal draws a theme (its colour variables and favicon). */
  applyBranding: (theme: Theme) => void;
}

/** Each screen at its own address, with what it would have been handed there. */
function screenRouters(parts: PreviewParts) {
  return {
    // An empty email parameter: the e-mail step does not fill in an address remembered here.
    login: () => createFixtureRouter(<parts.LoginPage />, { pathname: paths.login, search: '?email=' }),
    password: () =>
      createFixtureRouter(<parts.LoginPasswordPage />, {
        pathname: paths.loginPassword,
        state: { email: sampleEmail },
      }),
    reset: () =>
      createFixtureRouter(<parts.ResetRequestPage />, {
        pathname: paths.resetPassword,
        search: `?${new URLSearchParams({ email: sampleEmail })}`,
      }),
    mfa: () => createFixtureRouter(<parts.VerifyScreen status={sampleMfaStatus} />, { pathname: paths.mfa }),
    error: () => createFixtureRouter(<parts.AccountDisabledPage />, { pathname: paths.accountDisabled }),
  } satisfies Record<PreviewScreen, unknown>;
}

/** A draft as drawn, with the translator that speaks its language. */
interface Drawing {
  draft: PreviewDraftMessage;
  translator: Translator;
}

/** The console's drafts, in the order they came; a later one overtakes one still loading its texts. */
function useDrafts(): Drawing | null {
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const translator = useRef<Translator | null>(null);
  useEffect(() => {
    let latest = 0;
    async function draw(draft: PreviewDraftMessage) {
      const serial = ++latest;
      const texts = await loadTexts(draft.locale);
      if (serial !== latest) return;
      if (translator.current) translator.current.use(draft.locale, texts);
      else translator.current = new Translator(draft.locale, texts);
      // The draft's own wording, as the portal shows a tenant's (main.tsx).
      applyTextOverrides(translator.current, draft.theme.texts);
      setDrawing({ draft, translator: translator.current });
    }
    const onMessage = (event: MessageEvent) => {
      const draft = trustedDraft(event);
      if (draft) void draw(draft);
    };
    window.addEventListener('message', onMessage);
    postToConsole({ type: 'keycard:preview-ready' });
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return drawing;
}

function setDocumentLanguage(locale: Locale): void {
  document.documentElement.lang = locale;
  // The portal's eight languages are all written left to right.
  document.documentElement.dir = 'ltr';
}

/** Tells search engines to leave the preview out (it shows the operator host's pages). */
function markNoIndex(): void {
  if (document.querySelector('meta[name="robots"]')) return;
  const meta = document.createElement('meta');
  meta.name = 'robots';
  meta.content = 'noindex';
  document.head.append(meta);
}

let installed: { parts: PreviewParts; routers: ReturnType<typeof screenRouters> } | null = null;

/**
 * Makes this document the preview (its route's chunk calls it once, before the first render):
 * the real screens to draw, no indexing, and nothing that acts (inert-preview.ts).
 */
export function installPreview(parts: PreviewParts): void {
  if (installed) return;
  installed = { parts, routers: screenRouters(parts) };
  markNoIndex();
  makePreviewInert();
}

/**
 * /preview/:screen — one real portal screen for the admin console's live theme preview
 * (`@keycard/contract/preview`). Until the console sends a draft, the screen shows the host's
 * own theme and language; each draft then redraws it in the draft's theme, language and text
 * overrides, and the console hears when it has been drawn.
 */
export function PreviewPage() {
  if (!installed) throw new Error('installPreview comes before the preview page.');
  const { parts, routers } = installed;
  const screen = toPreviewScreen(useParams().screen);
  const router = useMemo(() => (screen ? routers[screen]() : null), [screen]);
  const drawing = useDrafts();
  const pageTranslator = useTranslator();
  const pageBranding = useBranding();
  // The screen's arrival effect focuses its first field: inert until then, so the frame
  // does not take the focus from the console around it.
  const [arrived, setArrived] = useState(false);
  useEffect(() => setArrived(true), []);

  useLayoutEffect(() => {
    if (!drawing) return;
    parts.applyBranding(drawing.draft.theme);
    showPreviewFont(drawing.draft.theme);
    setDocumentLanguage(drawing.draft.locale);
  }, [drawing]);
  useEffect(() => {
    if (!drawing || !screen) return;
    const drawn = getComputedStyle(document.documentElement).getPropertyValue('--kc-primary-bg').trim();
    postToConsole({
      type: 'keycard:preview-rendered',
      screen,
      locale: drawing.draft.locale,
      primaryBackground: drawn,
    });
  }, [drawing, screen]);

  if (!router) return <parts.NotFoundPage />;
  // The same tree before and after the first draft: the screen is redrawn, never remounted
  // (what was typed stays, and its arrival effect does not run again).
  const draft = drawing?.draft;
  return (
    <div inert={!arrived}>
      <I18nProvider translator={drawing?.translator ?? pageTranslator}>
        <BrandingProvider
          branding={draft ? { theme: draft.theme, tenantCode: draft.tenantCode } : pageBranding}
        >
          <RouterProvider router={router} />
        </BrandingProvider>
      </I18nProvider>
    </div>
  );
}
