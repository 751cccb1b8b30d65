import { adminClientSecretResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { adminMigrations } from '../db/migrations/admin.ts';
import { clientSecretMatches, hashClientSecret } from './client-secret.ts';

/** RFC 7009 revocation needs the client's authentication and nothing else: 200 or 401. */
function revokeAs(t: TestApp, clientId: string, secret: string) {
  // A server-to-server call: no Origin (the provider checks a browser's against the client).
  return call(t.app, 'POST', '/oidc/token/revocation', {
    origin: null,
    body: 'token=not-a-token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
  });
}

async function storedSecret(t: TestApp, clientId: string): Promise<string | undefined> {
  const row = await t.services.db
    .selectFrom('oidc_clients')
    .select('metadata')
    .where('tenant_code', '=', 'grand-hotel')
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return (JSON.parse(row.metadata) as { client_secret?: string }).client_secret;
}

describe('client secret digests', () => {
  it('match the secret they were made from, in constant time, and nothing else', () => {
    const digest = hashClientSecret('s3cret');
    expect(digest).toMatch(/^sha256:[\w-]{43}$/);
    expect(clientSecretMatches(digest, 's3cret')).toBe(true);
    expect(clientSecretMatches(digest, 's3cret ')).toBe(false);
    expect(clientSecretMatches(digest, digest)).toBe(false);
    // A secret stored before digests is still compared as it is.
    expect(clientSecretMatches('s3cret', 's3cret')).toBe(true);
    expect(clientSecretMatches('s3cret', 'other')).toBe(false);
    expect(clientSecretMatches(undefined, 's3cret')).toBe(false);
  });
});

describe.each(engines)('client secrets at rest on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('keeps only a digest of a secret the admin API makes, and the client authenticates with the secret', async () => {
    const owner = await operatorToken(t, 'secret-owner', 'owner');
    const created = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: { clientId: 'digest-app', redirectUris: ['http://localhost:3001/cb'] },
    });
    expect(created.statusCode).toBe(201);
    const { secret } = adminClientSecretResponse.parse(created.json());
    const stored = await storedSecret(t, 'digest-app');
    expect(stored).toBe(hashClientSecret(secret!));
    expect(
      JSON.stringify(await t.services.db.selectFrom('oidc_clients').selectAll().execute()),
    ).not.toContain(secret);
    expect((await revokeAs(t, 'digest-app', secret!)).statusCode).toBe(200);
    expect((await revokeAs(t, 'digest-app', 'a-wrong-secret')).statusCode).toBe(401);
    // The digest itself is not a secret that works.
    expect((await revokeAs(t, 'digest-app', stored!)).statusCode).toBe(401);
  });

  it('turns a secret stored as it was into its digest, and the client keeps working', async () => {
    await t.services.db
      .insertInto('oidc_clients')
      .values({
        tenant_code: 'grand-hotel',
        client_id: 'legacy-app',
        metadata: JSON.stringify({
          client_id: 'legacy-app',
          client_secret: 'legacy-plain-secret',
          redirect_uris: ['http://localhost:3001/cb'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        }),
        created_at: Date.now(),
      })
      .execute();
    t.services.tenants.invalidate('grand-hotel');
    expect((await revokeAs(t, 'legacy-app', 'legacy-plain-secret')).statusCode).toBe(200);

    await adminMigrations['8005_client_secret_digests']!.up(t.services.db);
    expect(await storedSecret(t, 'legacy-app')).toBe(hashClientSecret('legacy-plain-secret'));
    // Converting twice changes nothing.
    await adminMigrations['8005_client_secret_digests']!.up(t.services.db);
    expect(await storedSecret(t, 'legacy-app')).toBe(hashClientSecret('legacy-plain-secret'));
    t.services.tenants.invalidate('grand-hotel');
    expect((await revokeAs(t, 'legacy-app', 'legacy-plain-secret')).statusCode).toBe(200);
    expect((await revokeAs(t, 'legacy-app', 'legacy-plain-secretx')).statusCode).toBe(401);
    // The demo app's secret, seeded through the configuration file, is a digest too.
    expect(await storedSecret(t, 'demo-app')).toBe(hashClientSecret('demo-app-secret'));
  });
});
