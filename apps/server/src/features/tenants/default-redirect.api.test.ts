import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  adminTenantCreateResponse,
  adminTenantSchema,
  apiErrorSchema,
  authorizeResponse,
  errorCodes,
  userIdentitySchema,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { adminCall, newTenant, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { activeUser, runCliOn } from '../accounts/test-support.ts';

/**
 * Issue 19, item 13: a tenant need not name a default app. Made without one (admin API or
 * `keycard apply`), a sign-in no app asked for ends on the tenant's own "You are signed in"
 * page; one can be set and cleared again, and export and apply carry its absence.
 */
describe.each(engines)('a tenant without a default redirect on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let dir: string;
  let counter = 0;
  const next = () => `dr-${++counter}-${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'default-redirect-owner', 'owner');
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-default-redirect-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tenant made through the admin API with no default redirect at all. */
  async function tenantWithout(code: string) {
    const { defaultRedirectUri: _left, ...body } = newTenant(code);
    const created = await adminCall(t.app, 'POST', '/tenants', { token: owner, body });
    expect(created.statusCode, created.body).toBe(201);
    return adminTenantCreateResponse.parse(created.json()).tenant;
  }

  async function signedInOn(code: string) {
    const email = `someone@${code}.test`;
    await activeUser(t, email, demo.password, { tenantCode: code });
    const host = `${code}.localhost:3000`;
    const { cookie, identity } = await signIn(t.app, { host, email, code });
    return { host, cookie, identity: userIdentitySchema.parse(identity) };
  }

  async function authorize(host: string, cookie: string, body: Record<string, string>) {
    return call(t.app, 'POST', '/api/authorize', { host, cookie, body });
  }

  it('is created without one and sends a sign-in no app asked for to its signed-in page', async () => {
    const code = next();
    const tenant = await tenantWithout(code);
    expect(tenant.defaultRedirectUri).toBe('');
    const read = await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner });
    expect(adminTenantSchema.parse(read.json()).defaultRedirectUri).toBe('');

    const { host, cookie, identity } = await signedInOn(code);
    expect(identity.defaultRedirectUri).toBe('');
    // Its own page on the domain the session lives on, and no device token for it (an app's).
    const bodies: Record<string, string>[] = [
      {},
      { redirectUri: '' },
      { userDeviceToken: 'device-token-of-this-browser' },
    ];
    for (const body of bodies) {
      const answer = await authorize(host, cookie, body);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(authorizeResponse.parse(answer.json()).location).toBe(`http://${host}/signed-in`);
    }
    // An app's own target is still checked: never an unregistered or unsafe one.
    for (const redirectUri of ['https://evil.example/', 'javascript:alert(1)']) {
      const refused = await authorize(host, cookie, { redirectUri });
      expect(refused.statusCode).toBe(400);
      expect(apiErrorSchema.parse(refused.json()).code).toBe(errorCodes.redirectNotAllowed);
    }
    const app = await authorize(host, cookie, { redirectUri: 'https://app.example.com/callback' });
    expect(authorizeResponse.parse(app.json()).location).toBe('https://app.example.com/callback');
  });

  it('can be given one, which a sign-in then goes to, and cleared again with null or empty', async () => {
    const code = next();
    await tenantWithout(code);
    const { host, cookie } = await signedInOn(code);

    const set = await adminCall(t.app, 'PATCH', `/tenants/${code}`, {
      token: owner,
      body: { defaultRedirectUri: 'https://app.example.com/home' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(adminTenantSchema.parse(set.json()).defaultRedirectUri).toBe('https://app.example.com/home');
    await t.services.tenants.refresh();
    const toApp = await authorize(host, cookie, { userDeviceToken: 'device-token-of-this-browser' });
    const location = new URL(authorizeResponse.parse(toApp.json()).location);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example.com/home');
    expect(location.searchParams.get('user-device-token')).toBeTruthy();

    for (const cleared of [null, '']) {
      const patched = await adminCall(t.app, 'PATCH', `/tenants/${code}`, {
        token: owner,
        body: { defaultRedirectUri: cleared },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(adminTenantSchema.parse(patched.json()).defaultRedirectUri).toBe('');
      await t.services.tenants.refresh();
      const landing = await authorize(host, cookie, {});
      expect(authorizeResponse.parse(landing.json()).location).toBe(`http://${host}/signed-in`);
      // Set again for the next round.
      await adminCall(t.app, 'PATCH', `/tenants/${code}`, {
        token: owner,
        body: { defaultRedirectUri: 'https://app.example.com/home' },
      });
    }
    // A change of another field keeps it.
    const other = await adminCall(t.app, 'PATCH', `/tenants/${code}`, {
      token: owner,
      body: { aliasCode: `${code}-alias` },
    });
    expect(adminTenantSchema.parse(other.json()).defaultRedirectUri).toBe('https://app.example.com/home');
  });

  it('keeps its absence through export and apply, and a file that leaves it out clears it', async () => {
    const code = next();
    await tenantWithout(code);
    const exported = await runCliOn(t, 'export', '--tenant', code);
    expect(exported.code, exported.err).toBe(0);
    const config = parse(exported.out);
    expect(config.tenants[0]).not.toHaveProperty('defaultRedirectUri');
    const file = path.join(dir, `${code}.yaml`);
    writeFileSync(file, exported.out);
    const again = await runCliOn(t, 'apply', '-f', file);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('No changes');

    // Named in the file: set, and exported as set.
    config.tenants[0].defaultRedirectUri = 'https://app.example.com/home';
    writeFileSync(file, stringify(config));
    expect((await runCliOn(t, 'apply', '-f', file)).code).toBe(0);
    const withOne = parse((await runCliOn(t, 'export', '--tenant', code)).out);
    expect(withOne.tenants[0].defaultRedirectUri).toBe('https://app.example.com/home');

    // Left out again (or empty): none, the signed-in landing.
    for (const without of [undefined, '']) {
      config.tenants[0].defaultRedirectUri = 'https://app.example.com/home';
      writeFileSync(file, stringify(config));
      expect((await runCliOn(t, 'apply', '-f', file)).code).toBe(0);
      if (without === undefined) delete config.tenants[0].defaultRedirectUri;
      else config.tenants[0].defaultRedirectUri = without;
      writeFileSync(file, stringify(config));
      const cleared = await runCliOn(t, 'apply', '-f', file);
      expect(cleared.code, cleared.err).toBe(0);
      const read = await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner });
      expect(adminTenantSchema.parse(read.json()).defaultRedirectUri).toBe('');
      expect(parse((await runCliOn(t, 'export', '--tenant', code)).out).tenants[0]).not.toHaveProperty(
        'defaultRedirectUri',
      );
    }
    await t.services.tenants.refresh();
    const { host, cookie } = await signedInOn(code);
    const landing = await authorize(host, cookie, {});
    expect(authorizeResponse.parse(landing.json()).location).toBe(`http://${host}/signed-in`);
  });

  it('is made by keycard apply from a file that never names one', async () => {
    const code = next();
    const { defaultRedirectUri: _left, ...tenant } = newTenant(code);
    const file = path.join(dir, `${code}.json`);
    writeFileSync(file, JSON.stringify({ tenants: [tenant] }));
    const applied = await runCliOn(t, 'apply', '-f', file);
    expect(applied.code, applied.err).toBe(0);
    const read = await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner });
    expect(adminTenantSchema.parse(read.json()).defaultRedirectUri).toBe('');
  });
});
