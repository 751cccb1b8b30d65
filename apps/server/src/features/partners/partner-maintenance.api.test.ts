import { apiPaths } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  demo,
  engines,
  sessionCookieOf,
  signIn,
  type TestApp,
} from '../../test/helper.ts';
import { captureLog } from '../../test/log-capture.ts';
import { type PartnerKey, partnerKey, registerPartner, signPartnerToken } from '../../test/partners.ts';
import { sweepExpired } from '../maintenance/janitor.ts';
import { removePartner } from './partner.repository.ts';

/** What outlives a partner sign-in: used jtis until their expiry, sessions until the partner goes. */
describe.each(engines)('partner upkeep on %s', (engine) => {
  let t: TestApp;
  let key: PartnerKey;
  const issuer = 'https://upkeep.partner.test';
  const audience = 'http://grand-hotel.localhost:3000/oidc';

  beforeAll(async () => {
    t = await buildTestApp(engine);
    key = await partnerKey('upkeep-key');
    const jwks = { keys: [key.publicJwk as { kty: 'EC' }] };
    await registerPartner(t, 'grand-hotel', { code: 'leaving', issuer, jwks });
    await registerPartner(t, 'grand-hotel', { code: 'staying', issuer, jwks });
  });
  afterAll(() => t.close());

  async function partnerSignIn(partner: string, sub: string) {
    const token = await signPartnerToken(key, {
      iss: issuer,
      aud: audience,
      sub,
      email: demo.grandHotel.email,
      email_verified: true,
    });
    const response = await call(t.app, 'POST', apiPaths.partners.sso(partner), { body: { token } });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookieOf(response)!;
  }
  const sessionExists = async (cookie: string) =>
    (await call(t.app, 'GET', apiPaths.session, { cookie })).json().exists as boolean;

  it('ends the sessions of a removed partner, and only those', async () => {
    const leaving = await partnerSignIn('leaving', 'sub-leaving');
    const staying = await partnerSignIn('staying', 'sub-staying');
    const password = (await signIn(t.app)).cookie;
    expect(await removePartner(t.services.db, 'grand-hotel', 'leaving')).toBe(true);
    expect(await sessionExists(leaving)).toBe(false);
    expect(await sessionExists(staying)).toBe(true);
    expect(await sessionExists(password)).toBe(true);
  });

  it('sweeps the used jtis of expired partner tokens and keeps the live ones', async () => {
    await partnerSignIn('staying', 'sub-sweep');
    const uses = () => t.services.db.selectFrom('partner_token_uses').select(['jti', 'expires_at']).execute();
    const before = await uses();
    expect(before.length).toBeGreaterThanOrEqual(1);
    const live = await sweepExpired(t.services.db, t.clock.now());
    expect(live.partnerTokenUses).toBe(0);
    const latest = Math.max(...before.map((row) => Number(row.expires_at)));
    const swept = await sweepExpired(t.services.db, latest);
    expect(swept.partnerTokenUses).toBe(before.length);
    expect(await uses()).toEqual([]);
  });
});

describe('the partner SSO page in the logs', () => {
  it('never logs the partner token its path carries', async () => {
    const log = captureLog();
    const t = await buildTestApp('sqlite', { env: { LOG_LEVEL: 'info' }, logStream: log.stream });
    try {
      const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc3ViamVjdCJ9.c2lnbmF0dXJlLXNlY3JldA';
      await call(t.app, 'GET', `/partners/demo-partner/sso/${token}`);
      const text = JSON.stringify(log.entries());
      expect(text).toContain('/partners/demo-partner/sso/[redacted]');
      expect(text).not.toContain('c2lnbmF0dXJlLXNlY3JldA');
    } finally {
      await t.close();
    }
  });
});
