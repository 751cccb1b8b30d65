import { escapeHtml, renderDocument } from './html.ts';
import type { DemoSession } from './session-store.ts';
import { type DemoTenant, describeTenant } from './tenants.ts';

export interface TenantAvailability {
  tenant: DemoTenant;
  available: boolean;
}

/** Claims shown first on the /me page, in this order; any others follow. */
const highlightedClaims = ['sub', 'email', 'email_verified', 'locale', 'user_type', 'iss', 'aud'];

function renderSignOutButton(): string {
  return `<form method="post" action="/logout"><button type="submit">Sign out</button></form>`;
}

function renderTenantItem({ tenant, available }: TenantAvailability): string {
  const label = `Sign in with ${escapeHtml(tenant.name)}`;
  if (available)
    return `<li><a class="button" href="/login/${encodeURIComponent(tenant.slug)}">${label}</a></li>`;
  return `<li><span class="unavailable">${label} — unavailable right now</span></li>`;
}

export function renderHomePage(tenants: TenantAvailability[], session: DemoSession | undefined): string {
  const signedIn = session
    ? `<section aria-labelledby="session-heading">
<h2 id="session-heading">You are signed in</h2>
<p>As <strong>${escapeHtml(session.claims.email ?? session.claims.sub)}</strong> with ${escapeHtml(describeTenant(session.tenant).name)} (<code>${escapeHtml(session.tenant)}</code>).</p>
<p><a href="/me">See your ID token claims</a></p>
${renderSignOutButton()}
</section>`
    : '';
  return renderDocument(
    'Home',
    `<h1>Keycard demo app</h1>
<p>This relying party signs you in with OpenID Connect through a Keycard tenant.</p>
${signedIn}
<section aria-labelledby="tenants-heading">
<h2 id="tenants-heading">Choose a tenant</h2>
<ul class="tenants">
${tenants.map(renderTenantItem).join('\n')}
</ul>
</section>`,
  );
}

function formatClaimValue(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) return value.join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function renderClaim(name: string, value: unknown): string {
  return `<dt>${escapeHtml(name)}</dt><dd data-claim="${escapeHtml(name)}">${escapeHtml(formatClaimValue(value))}</dd>`;
}

export function renderMePage(session: DemoSession): string {
  const claims: Record<string, unknown> = session.claims;
  const names = [
    ...highlightedClaims.filter((name) => name in claims),
    ...Object.keys(claims).filter((name) => !highlightedClaims.includes(name)),
  ];
  const tenant = describeTenant(session.tenant);
  return renderDocument(
    'Signed in',
    `<h1>Signed in</h1>
<p>You are signed in to <strong>${escapeHtml(tenant.name)}</strong> (tenant <code data-tenant="${escapeHtml(tenant.slug)}">${escapeHtml(tenant.slug)}</code>).</p>
<h2>Verified ID token claims</h2>
<dl class="claims">
${names.map((name) => renderClaim(name, claims[name])).join('\n')}
</dl>
${renderSignOutButton()}
<p><a href="/">Back to the home page</a></p>`,
  );
}

export function renderErrorPage(code: string, description: string | undefined): string {
  return renderDocument(
    'Sign-in failed',
    `<h1>Sign-in failed</h1>
<p>Error code: <code data-error="code">${escapeHtml(code)}</code></p>
${description ? `<p data-error="description">${escapeHtml(description)}</p>` : ''}
<p><a href="/">Back to the home page</a></p>`,
  );
}

export function renderNotFoundPage(): string {
  return renderDocument(
    'Not found',
    `<h1>Page not found</h1>
<p>There is nothing at this address.</p>
<p><a href="/">Back to the home page</a></p>`,
  );
}

export function renderServerErrorPage(): string {
  return renderDocument(
    'Something went wrong',
    `<h1>Something went wrong</h1>
<p>The demo app could not handle this request.</p>
<p><a href="/">Back to the home page</a></p>`,
  );
}
