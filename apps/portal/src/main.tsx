import { paths } from '@keycard/contract/paths';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/app.css';
import { RouterProvider } from '@keycard/web/router';
import { readBootstrap } from './app/bootstrap.ts';
import { chooseLocale, initI18n } from './app/i18n.ts';
import { createRouter } from './app/router.tsx';
import { type Branding, BrandingProvider } from './lib/branding.tsx';
import { firstPaintFormSettled, keepFirstPaintInput } from './lib/first-paint-input.ts';
import { applyTextOverrides, I18nProvider } from './lib/i18n.tsx';
import { rememberedLanguage } from './lib/language.ts';

async function start(): Promise<void> {
  // The server rendered the page for this host (first paint): its language and branding
  // stand; without it (a static host, the dev server) they are chosen and fetched here.
  const bootstrap = readBootstrap();
  const locale =
    bootstrap?.locale ??
    chooseLocale(window.location.search, [
      rememberedLanguage() ?? '',
      ...(navigator.languages ?? [navigator.language]),
    ]);
  const [translator, branding] = await Promise.all([
    initI18n(locale),
    bootstrap ? Promise.resolve(bootstrap.branding) : fetchBranding(),
  ]);
  // Before the first render: the tenant's wording replaces the server's first paint as it is.
  if (branding) applyTextOverrides(translator, branding.theme.texts);
  const router = createRouter();
  // SPEC §8: a theme that cannot be loaded leads to the unknown error page.
  if (!branding && !window.location.pathname.startsWith('/error'))
    await router.navigate(paths.error, { replace: true });
  // The first screen's chunk (a lazy route) is in before the first render: no blank frame.
  await router.ready;
  const root = document.getElementById('root');
  if (!root) return;
  await firstPaintFormSettled();
  keepFirstPaintInput();
  createRoot(root).render(
    <StrictMode>
      <I18nProvider translator={translator}>
        <BrandingProvider branding={branding}>
          <RouterProvider router={router} />
        </BrandingProvider>
      </I18nProvider>
    </StrictMode>,
  );
}

/**
 * The host's branding where no server rendered the page (a static host, the dev server): asked
 * for and applied here. A rendered page carries it already, drawn (first-paint.ts sets the same
 * colours, <html> attributes and favicon as applyBranding), so the theme's colour work is a
 * chunk of its own that the login route does not carry.
 */
async function fetchBranding(): Promise<Branding | null> {
  try {
    const theme = await import('./app/theme.tsx');
    const branding = await theme.loadBranding(window.location.hostname);
    theme.applyBranding(branding.theme);
    return branding;
  } catch {
    return null;
  }
}

void start();
