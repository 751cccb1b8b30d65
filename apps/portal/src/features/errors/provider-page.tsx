import { enCore } from '@keycard/texts/en-core';
import { fillRedirectPortHint } from '@keycard/texts/provider-hints';
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
type PortHint = { requested: string; registered: string };
type ProviderPageData =
  | { kind: 'error'; code: string; request: 'sign-in' | 'log-out'; portHint?: PortHint }
  | { kind: 'logout' };

/** The server's port hint (a redirect that differs from the registered one only in its port). */
function portHintOf(value: unknown): PortHint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { requested, registered } = value as Partial<Record<string, unknown>>;
  return typeof requested === 'string' && typeof registered === 'string'
    ? { requested, registered }
    : undefined;
}

function readProviderPage(): ProviderPageData | null {
  const text = document.getElementById('kc-provider-page')?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<{
      kind: string;
      code: unknown;
      request: unknown;
      portHint: unknown;
    }>;
    if (data.kind === 'logout') return { kind: 'logout' };
    if (data.kind === 'error' && typeof data.code === 'string' && /^[a-z_]{1,64}$/.test(data.code)) {
      const portHint = portHintOf(data.portHint);
      return {
        kind: 'error',
        code: data.code,
        request: data.request === 'log-out' ? 'log-out' : 'sign-in',
        ...(portHint ? { portHint } : {}),
      };
    }
  } catch {
    // A broken block is no provider page.
  }
  return null;
}

/** The refused request: the stable code, its explanation, and what to do next. */
function ProviderErrorScreen({
  code,
  request,
  portHint,
}: {
  code: string;
  request: 'sign-in' | 'log-out';
  portHint?: PortHint | undefined;
}) {
  const { t, i18n } = useTranslation();
  const titleKey = request === 'log-out' ? 'titles.logoutRefused' : 'titles.requestRefused';
  const reason = keyIn(enCore, 'errors.provider.reasons', code) ?? 'errors.provider.reasons.other';
  return (
    <Page titleKey={titleKey} heading={t(titleKey)}>
      <p>{t(reason)}</p>
      {portHint && <p>{fillRedirectPortHint(i18n.language, portHint)}</p>}
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
  if (data?.kind === 'error') {
    return <ProviderErrorScreen code={data.code} request={data.request} portHint={data.portHint} />;
  }
  if (data?.kind === 'logout') return <ProviderLogoutScreen />;
  return <UnknownErrorPage />;
}
