import type { TenantContext } from '../tenants/tenant.types.ts';

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(tenant: TenantContext, title: string, body: string, script?: string): string {
  const c = tenant.theme.colours;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(tenant.theme.name)}</title>
<link rel="icon" href="${escapeHtml(tenant.theme.images.favicon)}">
<link rel="stylesheet" href="/_keycard/provider.css">
</head><body data-bg="${escapeHtml(c.primaryBackground)}">
<main><img src="${escapeHtml(tenant.theme.images.logo)}" alt="${escapeHtml(tenant.theme.name)}" height="48">
${body}</main>${script ? `<script src="${script}"></script>` : ''}</body></html>`;
}

/** The provider's error page: shown, never redirected (e.g. an unregistered redirect_uri). */
export function renderProviderError(
  tenant: TenantContext,
  out: { error?: string; error_description?: string },
): string {
  return page(
    tenant,
    'Sign-in request refused',
    `<h1>Sign-in request refused</h1>
<p>The application sent an invalid sign-in request. Please return to the application and try again.</p>
<p><code>${escapeHtml(out.error)}</code>: ${escapeHtml(out.error_description)}</p>`,
  );
}

/** RP-initiated logout: submits the provider's own form (a button without JavaScript). */
export function renderLogoutPage(tenant: TenantContext, form: string): string {
  return page(
    tenant,
    'Signing out',
    `<h1>Signing out…</h1>${form}<noscript><button form="op.logoutForm" type="submit" name="logout" value="yes">Sign out</button></noscript>`,
    '/_keycard/logout.js',
  );
}

export const logoutScript = `(function () {
  var form = document.getElementById('op.logoutForm');
  var input = document.createElement('input');
  input.type = 'hidden'; input.name = 'logout'; input.value = 'yes';
  form.appendChild(input);
  form.submit();
})();`;

export const providerCss = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f4;color:#1a1a1a}
main{max-width:32rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px}
h1{font-size:1.4rem}code{background:#eee;padding:0 .25rem}`;
