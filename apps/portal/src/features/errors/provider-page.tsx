import { enCore } from '@keycard/texts/en-core';
import { keyIn } from '@keycard/texts/translator';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { Page } from '../../ui/page.tsx';
import { SupportLink, UnknownErrorPage } from './error-pages.tsx';

/**
 * The identity provider's own pages at its addresses (/oidc/auth, /oidc/session/end, …). The
 * server rendered them as portal pages (apps/server/src/oidc/pages.ts) with their HTTP status
 * and a data block saying which one this is; this screen takes over the same content, with
 * the language menu.
 */
type ProviderPageData = { kind: 'error'; code: string; request: 'sign-in' | 'log-out' } | { kind: 'logout' };

function readProviderPage(): ProviderPageData | null {
  const text = document.getElementById('kc-provider-page')?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<{ kind: string; code: unknown; request: unknown }>;
    if (data.kind === 'logout') return { kind: 'logout' };
    if (data.kind === 'error' && typeof data.code === 'string' && /^[a-z_]{1,64}$/.test(data.code)) {
      return { kind: 'error', code: data.code, request: data.request === 'log-out' ? 'log-out' : 'sign-in' };
    }
  } catch {
    // A broken block is no provider page.
  }
  return null;
}

/** The refused request: the stable code, its explanation, and what to do next. */
function ProviderErrorScreen({ code, request }: { code: string; request: 'sign-in' | 'log-out' }) {
  const { t } = useTranslation();
  const titleKey = request === 'log-out' ? 'titles.logoutRefused' : 'titles.requestRefused';
  const reason = keyIn(enCore, 'errors.provider.reasons', code) ?? 'errors.provider.reasons.other';
  return (
    <Page titleKey={titleKey} heading={t(titleKey)}>
      <p>{t(reason)}</p>
      <p>{t('errors.provider.next')}</p>
      <p>
        {t('errors.provider.codeLabel')}: <code>{code}</code>
      </p>
      <div className="kc-links">
        <SupportLink />
      </div>
    </Page>
  );
}

/**
 * RP-initiated logout: the provider's form (with its CSRF token) stays outside the portal's
 * root, where the server put it; /_keycard/logout.js has submitted it already, and this
 * button submits it again only when a person asks.
 */
function ProviderLogoutScreen() {
  const { t } = useTranslation();
  return (
    <Page titleKey="titles.logout" heading={t('titles.logout')}>
      <p>{t('logout.provider.body')}</p>
      <button className="kc-button" type="submit" form="op.logoutForm" name="logout" value="yes">
        {t('logout.provider.submit')}
      </button>
    </Page>
  );
}

export function ProviderPage() {
  const [data] = useState(readProviderPage);
  if (data?.kind === 'error') return <ProviderErrorScreen code={data.code} request={data.request} />;
  if (data?.kind === 'logout') return <ProviderLogoutScreen />;
  return <UnknownErrorPage />;
}
