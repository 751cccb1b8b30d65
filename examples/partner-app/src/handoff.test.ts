import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../../apps/server/src/features/accounts/user.repository.ts';
import { issueHandoffCode } from '../../../apps/server/src/features/partners/handoff.service.ts';
import { savePartner } from '../../../apps/server/src/features/partners/partner.repository.ts';
import { demoPartner, registerDemoPartnerApp } from '../../../apps/server/src/surfaces/seed/demo.ts';
import { buildTestApp, freePort, type TestApp } from '../../../apps/server/src/test/helper.ts';
import { createPartnerApp, type PartnerApp } from './app.ts';

/**
 * The app's end of the hand-off against a real Keycard listening on a port: it redeems the
 * one-time code at the tenant's /oidc/token with its client secret, verifies the ID token
 * against the tenant's published keys, and shows a failed redemption as an error page.
 */
describe('demo partner app redeeming hand-off codes at a real Keycard', () => {
  let keycard: TestApp;
  let app: PartnerApp;
  let userId: string;

  beforeAll(async () => {
    const port = await freePort();
    keycard = await buildTestApp('sqlite', { env: { PORT: String(port) } });
    await keycard.app.listen({ port, host: 'localhost' });
    app = await createPartnerApp({ port: 0, keycardPort: port });
    await registerDemoPartnerApp(keycard.services.db, app.url, keycard.clock.now());
    keycard.services.tenants.invalidate();
    keycard.services.providers.invalidate();
    userId = (await findUserByEmail(keycard.services.db, 'grand-hotel', 'demo@grand-hotel.test'))!.id;
  });
  afterAll(async () => {
    await app?.close();
    await keycard?.close();
  });

  /** A code as generate-token issues it after a complete partner sign-in. */
  function handoffCode(partnerCode = 'demo-partner'): Promise<string> {
    return issueHandoffCode(
      keycard.services.db,
      {
        tenantCode: 'grand-hotel',
        userId,
        data: {
          partnerCode,
          redirectUri: app.handoffUri,
          amr: ['fed'],
          authTime: Math.floor(keycard.clock.now() / 1000),
        },
      },
      keycard.clock.now(),
    );
  }

  function arrive(code: string, tenantCode = 'grand-hotel'): Promise<Response> {
    const url = new URL(app.handoffUri);
    url.search = new URLSearchParams({ tenantCode, code }).toString();
    return fetch(url, { redirect: 'manual' });
  }

  it('signs the user in with the verified ID token, once', async () => {
    const code = await handoffCode();
    const first = await arrive(code);
    expect(first.status, await first.clone().text()).toBe(303);
    // Off the address with the code, so a reload cannot spend it again.
    expect(first.headers.get('location')).toBe('/me');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^partner_session=[\w-]{43}$/);

    const page = await fetch(`${app.url}/me`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const claim = (name: string) => new RegExp(`<dd data-claim="${name}">([^<]*)</dd>`).exec(html)?.[1];
    expect(claim('sub')).toBe(userId);
    expect(claim('email')).toBe('demo@grand-hotel.test');
    expect(claim('email_verified')).toBe('true');
    expect(claim('partner_code')).toBe('demo-partner');
    expect(claim('iss')).toBe(`http://grand-hotel.localhost:${keycard.config.port}/oidc`);
    expect(claim('aud')).toBe('demo-partner-app');
    expect(html).toContain('<code data-tenant="grand-hotel">grand-hotel</code>');

    // The same code again (a reload of the hand-off address, or a thief): refused.
    const second = await arrive(code);
    expect(second.status).toBe(400);
    const error = await second.text();
    expect(error).toContain('<h1>Sign-in failed</h1>');
    expect(error).toContain('<code data-error="code">invalid_grant</code>');
    expect(second.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a code at another hotel than the one that issued it', async () => {
    const response = await arrive(await handoffCode(), 'summit');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('<code data-error="code">invalid_grant</code>');
  });

  it('refuses a made-up code', async () => {
    const response = await arrive('not-a-code-from-keycard');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('<code data-error="code">invalid_grant</code>');
  });

  it("refuses an ID token from another partner's sign-in, even one sent to its address", async () => {
    // Another partner of the hotel that (wrongly) lists this app's address as its own.
    await savePartner(
      keycard.services.db,
      'grand-hotel',
      { ...demoPartner(app.url), code: 'other-partner', issuer: 'https://other-partner.example' },
      keycard.clock.now(),
    );
    const response = await arrive(await handoffCode('other-partner'));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<code data-error="code">invalid_id_token</code>');
    expect(html).toContain('other-partner');
  });
});
