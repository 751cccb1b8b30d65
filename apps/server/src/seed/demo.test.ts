import { tokenExchange } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPartner, listPartners, savePartner } from '../partners/partner.repository.ts';
import { updateTenantSettings } from '../tenants/tenant.admin.ts';
import { buildTestApp, call, engines, type TestApp } from '../test/helper.ts';
import { demoPartner, seedDemo } from './demo.ts';

describe.each(engines)('demo seed on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('is idempotent and keeps settings an operator changed', async () => {
    await updateTenantSettings(t.services.db, 'seaside', { passwordExpiryDays: 90 });
    await seedDemo(t.services.db);
    await seedDemo(t.services.db);
    const tenants = await t.services.db
      .selectFrom('tenants')
      .select(['code', 'settings'])
      .orderBy('code')
      .execute();
    expect(tenants.map((row) => row.code)).toEqual(['grand-hotel', 'seaside', 'summit']);
    expect(JSON.parse(tenants[1]!.settings).passwordExpiryDays).toBe(90);
    expect(JSON.parse(tenants[2]!.settings).mfa.mode).toBe('required');
    const users = await t.services.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'demo@%')
      .execute();
    expect(users).toHaveLength(3);
  });

  it('registers the demo partner app on grand-hotel and summit once, keeping what an operator changed', async () => {
    const db = t.services.db;
    expect(await listPartners(db, 'seaside')).toEqual([]);
    for (const tenant of ['grand-hotel', 'summit']) {
      expect(await findPartner(db, tenant, 'demo-partner')).toMatchObject({
        tenantCode: tenant,
        issuer: 'http://localhost:3002',
        jwksUri: 'http://localhost:3002/.well-known/jwks.json',
        jwks: null,
        algorithms: ['ES256'],
        linking: 'link-verified-email',
        redirectUris: ['http://localhost:3002/handoff'],
        skipMfa: false,
      });
    }
    await savePartner(db, 'summit', { ...demoPartner(), skipMfa: true }, Date.now());
    await seedDemo(db);
    expect((await findPartner(db, 'summit', 'demo-partner'))?.skipMfa).toBe(true);
    expect(await listPartners(db, 'grand-hotel')).toHaveLength(1);
  });

  it('registers the demo partner app as a client the token endpoint accepts', async () => {
    const clients = await t.services.db
      .selectFrom('oidc_clients')
      .select(['tenant_code', 'client_id'])
      .where('client_id', '=', 'demo-partner-app')
      .orderBy('tenant_code')
      .execute();
    expect(clients.map((row) => row.tenant_code)).toEqual(['grand-hotel', 'summit']);
    for (const host of ['grand-hotel.localhost:3000', 'summit.localhost:3000']) {
      const response = await call(t.app, 'POST', '/oidc/token', {
        host,
        origin: null,
        headers: {
          authorization: `Basic ${Buffer.from('demo-partner-app:demo-partner-app-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: tokenExchange.grantType,
          subject_token: 'not-a-hand-off-code',
          subject_token_type: tokenExchange.handoffCodeType,
        }).toString(),
      });
      // The client and its grant are known: only the code is wrong.
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    }
  });
});
