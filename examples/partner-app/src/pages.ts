import { escapeHtml, renderDocument as renderShell } from '@keycard/demo-app/html';
import type { PartnerSession } from './session-store.ts';
import { signingAlgorithm } from './signing-key.ts';
import { findTenant, type PartnerTenant } from './tenants.ts';

/** The example apps' document shell, under this app's name. */
const renderDocument = (title: string, mainHtml: string) => renderShell(title, mainHtml, 'Demo partner app');

export interface KeyDescription {
  issuer: string;
  kid: string;
  jwksUrl: string;
}

/** Claims shown first on the signed-in page, in this order; any others follow. */
const highlightedClaims = [
  'sub',
  'email',
  'email_verified',
  'partner_code',
  'amr',
  'auth_time',
  'iss',
  'aud',
];
const timeClaims = new Set(['iat', 'exp', 'nbf', 'auth_time']);

function tenantName(slug: string): string {
  return findTenant(slug)?.name ?? slug;
}

function renderSignOutButton(): string {
  return `<form method="post" action="/logout"><button type="submit">Sign out</button></form>`;
}

function renderTenant(tenant: PartnerTenant): string {
  const headingId = `tenant-${escapeHtml(tenant.slug)}`;
  const { user } = tenant;
  return `<section class="tenant" aria-labelledby="${headingId}">
<h3 id="${headingId}">${escapeHtml(tenant.name)}</h3>
<p>You are <strong>${escapeHtml(`${user.givenName} ${user.familyName}`)}</strong> (<code>${escapeHtml(user.email)}</code>) at this hotel.</p>
<form method="post" action="/portal/${encodeURIComponent(tenant.slug)}">
<button type="submit">Open the hotel portal</button>
</form>
</section>`;
}

export function renderHomePage(
  tenants: readonly PartnerTenant[],
  key: KeyDescription,
  session: PartnerSession | undefined,
): string {
  const signedIn = session
    ? `<section aria-labelledby="session-heading">
<h2 id="session-heading">You are signed in</h2>
<p>As <strong>${escapeHtml(session.claims.email ?? session.claims.sub)}</strong> through ${escapeHtml(tenantName(session.tenant))} (<code>${escapeHtml(session.tenant)}</code>).</p>
<p><a href="/me">See the verified ID token claims</a></p>
${renderSignOutButton()}
</section>`
    : '';
  return renderDocument(
    'Home',
    `<h1>Demo partner booking app</h1>
<p>A partner application, such as a booking engine, that sends its users to a hotel's Keycard portal with a partner token it signed itself. After every step the hotel asks for (two-step verification, for example), Keycard sends the user back here with a one-time code, which this app redeems server to server for an ID token.</p>
${signedIn}
<section aria-labelledby="hotels-heading">
<h2 id="hotels-heading">Your hotels</h2>
<p>Each click signs a fresh partner token, valid for five minutes and usable once.</p>
${tenants.map(renderTenant).join('\n')}
</section>
<section aria-labelledby="key-heading">
<h2 id="key-heading">How this app signs its tokens</h2>
<dl class="claims">
<dt>Issuer</dt><dd data-key="issuer">${escapeHtml(key.issuer)}</dd>
<dt>Algorithm</dt><dd>${escapeHtml(signingAlgorithm)}</dd>
<dt>Key id</dt><dd data-key="kid"><code>${escapeHtml(key.kid)}</code></dd>
<dt>Public keys</dt><dd><a href="${escapeHtml(key.jwksUrl)}">${escapeHtml(key.jwksUrl)}</a></dd>
</dl>
<p>This app makes a new signing key every time it starts. Keycard meets a key id it does not know, fetches the key set again and accepts the new key: that is key rotation, with nothing to change at Keycard.</p>
</section>`,
  );
}

function formatClaimValue(name: string, value: unknown): string {
  if (timeClaims.has(name) && typeof value === 'number') {
    return `${value} (${new Date(value * 1000).toISOString()})`;
  }
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) return value.join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function renderClaim(name: string, value: unknown): string {
  return `<dt>${escapeHtml(name)}</dt><dd data-claim="${escapeHtml(name)}">${escapeHtml(formatClaimValue(name, value))}</dd>`;
}

export function renderSignedInPage(session: PartnerSession): string {
  const claims: Record<string, unknown> = session.claims;
  const names = [
    ...highlightedClaims.filter((name) => name in claims),
    ...Object.keys(claims).filter((name) => !highlightedClaims.includes(name)),
  ];
  return renderDocument(
    'Signed in',
    `<h1>Signed in</h1>
<p>Welcome back from <strong>${escapeHtml(tenantName(session.tenant))}</strong> (tenant <code data-tenant="${escapeHtml(session.tenant)}">${escapeHtml(session.tenant)}</code>). Keycard handed this app a one-time code; the app redeemed it at the hotel's token endpoint and checked the ID token's signature against the hotel's published keys.</p>
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
<p>A hand-off code works once and for one minute; open the hotel portal again for a new one.</p>
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
<p>The demo partner app could not handle this request.</p>
<p><a href="/">Back to the home page</a></p>`,
  );
}
