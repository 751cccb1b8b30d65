import {
  adminErrors,
  adminMeResponse,
  adminPartnerListResponse,
  adminPartnerResponse,
  apiErrorSchema,
  apiPaths,
  partnerErrors,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { demo, engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import {
  manyRequests,
  type PartnerKey,
  partnerKey,
  partnerSso,
  signPartnerToken,
} from '../../test/partners.ts';
import { operatorToken } from './admin.test-support.ts';

/**
 * Issue 16, item 2: a partner's keys, issuer, linking and skipMfa decide whom Keycard accepts
 * as a user, so only owners write partners. A scoped tenant admin who registered a partner with
 * its own key, `link-verified-email` and skipMfa could sign in as any account of its tenant
 * (the demo user, here) without a password or MFA. Over HTTP, on SQLite and on two PostgreSQL
 * instances of one database.
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

describe.each(layouts)('partner trust, an owner’s alone, on %s, %s', (engine) => {
  let cluster: Cluster;
  let grand: string;
  let admin: string;
  let owner: string;
  let tenantAdmin: string;
  let helpDesk: string;
  let auditor: string;
  let attackerKey: PartnerKey;
  let genuineKey: PartnerKey;
  const via = (i: number) => cluster.instances[i % cluster.instances.length]!.fetch;
  const genuine = () => ({
    code: 'hotel-partner',
    displayName: 'Hotel partner',
    issuer: 'https://hotel.partner.test',
    jwks: { keys: [genuineKey.publicJwk] },
    linking: 'link-verified-email',
    skipMfa: false,
  });
  const rogue = () => ({
    code: 'rogue',
    displayName: 'Rogue',
    issuer: 'https://rogue.example',
    jwks: { keys: [attackerKey.publicJwk] },
    linking: 'link-verified-email',
    skipMfa: true,
  });

  beforeAll(async () => {
    cluster = await instancesFor(engine, manyRequests);
    grand = cluster.origin('grand-hotel');
    admin = cluster.origin('admin');
    owner = await operatorToken(cluster.t, 'pr-owner', 'owner');
    tenantAdmin = await operatorToken(cluster.t, 'pr-tenant-admin', 'tenant_admin', ['grand-hotel']);
    helpDesk = await operatorToken(cluster.t, 'pr-help-desk', 'help_desk', ['grand-hotel']);
    auditor = await operatorToken(cluster.t, 'pr-auditor', 'auditor', ['grand-hotel']);
    attackerKey = await partnerKey('attacker-key');
    genuineKey = await partnerKey('genuine-key');
    const created = await call(0, 'PUT', '/tenants/grand-hotel/partners/hotel-partner', owner, genuine());
    expect(created.status).toBe(200);
    adminPartnerResponse.parse(created.body);
  });
  afterAll(() => cluster.close());

  async function call(instance: number, method: string, path: string, token: string, body?: unknown) {
    const response = await via(instance)(`${admin}/admin/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  function expectForbidden(answer: { status: number; body: unknown }, what: string) {
    expect(answer.status, what).toBe(403);
    expect(apiErrorSchema.parse(answer.body).code, what).toBe(adminErrors.forbidden);
  }

  /** The demo user's partner sign-in with a token the attacker signed: no session. */
  async function signInAsDemo(partnerCode: string, issuer: string) {
    const browser = new Browser(via(1));
    const token = await signPartnerToken(attackerKey, {
      iss: issuer,
      aud: `${grand}/oidc`,
      sub: 'attacker-chosen-subject',
      email: demo.grandHotel.email,
      email_verified: true,
    });
    const answer = await partnerSso(browser, grand, partnerCode, token);
    const session = await browser.fetch(`${grand}${apiPaths.session}`);
    return { ...answer, sessionExists: ((await session.json()) as { exists: boolean }).exists };
  }

  const storedPartner = (code: string) =>
    cluster.t.services.db
      .selectFrom('partners')
      .selectAll()
      .where('tenant_code', '=', 'grand-hotel')
      .where('partner_code', '=', code)
      .executeTakeFirst();

  it('refuses a tenant admin the partner it registers with its own key and skipMfa, 20 at once; its token for the demo user opens nothing', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i, 'PUT', '/tenants/grand-hotel/partners/rogue', tenantAdmin, rogue()),
      ),
    );
    for (const answer of answers) expectForbidden(answer, 'tenant admin registering a partner');
    expect(await storedPartner('rogue')).toBeUndefined();

    const attack = await signInAsDemo('rogue', rogue().issuer);
    expect(attack.status).toBe(404);
    expect(attack.body.code).toBe(partnerErrors.unknown);
    expect(attack.setsSession).toBe(false);
    expect(attack.sessionExists).toBe(false);
  });

  it('refuses a tenant admin every change to an existing partner, field by field, and its removal', async () => {
    const before = await storedPartner('hotel-partner');
    const changes: Array<[string, Record<string, unknown>]> = [
      ['its inline keys', { jwks: { keys: [attackerKey.publicJwk] } }],
      ['its keys beside the genuine one', { jwks: { keys: [genuineKey.publicJwk, attackerKey.publicJwk] } }],
      ['a key set address', { jwks: null, jwksUri: 'https://rogue.example/jwks.json' }],
      ['its issuer', { issuer: 'https://rogue.example' }],
      ['its algorithms', { algorithms: ['RS256'] }],
      ['its linking policy', { linking: 'provision' }],
      ['skipMfa', { skipMfa: true }],
      ['its redirect URIs', { redirectUris: ['https://rogue.example/handoff'] }],
      ['its help link', { helpUrlTemplate: 'https://rogue.example/help?e={email}' }],
      ['only its display name', { displayName: 'Renamed' }],
    ];
    for (const [what, change] of changes) {
      expectForbidden(
        await call(1, 'PUT', '/tenants/grand-hotel/partners/hotel-partner', tenantAdmin, {
          ...genuine(),
          ...change,
        }),
        `tenant admin changing ${what}`,
      );
    }
    expectForbidden(
      await call(0, 'DELETE', '/tenants/grand-hotel/partners/hotel-partner', tenantAdmin),
      'tenant admin removing the partner',
    );
    expect(await storedPartner('hotel-partner')).toEqual(before);

    // The key the tenant admin tried to add signs nothing in.
    const attack = await signInAsDemo('hotel-partner', genuine().issuer);
    expect(attack.status).toBe(401);
    expect(attack.body.code).toBe(partnerErrors.tokenInvalid);
    expect(attack.sessionExists).toBe(false);
  });

  it('refuses help desk and auditor any partner write, and lets every role read partners', async () => {
    for (const [role, token] of [
      ['help desk', helpDesk],
      ['auditor', auditor],
    ] as const) {
      expectForbidden(
        await call(0, 'PUT', '/tenants/grand-hotel/partners/rogue', token, rogue()),
        `${role} registering a partner`,
      );
      expectForbidden(
        await call(1, 'PUT', '/tenants/grand-hotel/partners/hotel-partner', token, {
          ...genuine(),
          jwks: { keys: [attackerKey.publicJwk] },
          skipMfa: true,
        }),
        `${role} changing a partner's keys`,
      );
      expectForbidden(
        await call(0, 'DELETE', '/tenants/grand-hotel/partners/hotel-partner', token),
        `${role} removing a partner`,
      );
    }
    expect(await storedPartner('rogue')).toBeUndefined();
    for (const token of [owner, tenantAdmin, helpDesk, auditor]) {
      const listed = await call(1, 'GET', '/tenants/grand-hotel/partners', token);
      expect(listed.status).toBe(200);
      const { partners } = adminPartnerListResponse.parse(listed.body);
      expect(partners.map((partner) => partner.code)).toContain('hotel-partner');
    }
  });

  it('tells the console through /me that only owners write partners, and lets the owner write them', async () => {
    const permissionsOf = async (token: string) => {
      const me = await call(0, 'GET', '/me', token);
      expect(me.status).toBe(200);
      return adminMeResponse.parse(me.body).permissions;
    };
    expect(await permissionsOf(owner)).toContain('partners.write');
    for (const token of [tenantAdmin, helpDesk, auditor]) {
      expect(await permissionsOf(token)).not.toContain('partners.write');
    }
    const renamed = await call(1, 'PUT', '/tenants/grand-hotel/partners/hotel-partner', owner, {
      ...genuine(),
      displayName: 'Hotel partner (owner)',
    });
    expect(renamed.status).toBe(200);
    expect(adminPartnerResponse.parse(renamed.body).partner.displayName).toBe('Hotel partner (owner)');
  });
});
