import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  adminInviteResponse,
  adminUserListResponse,
  apiErrorSchema,
  errorCodes,
  lifecycleApi,
  loginResponse,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, operatorToken, testTheme } from '../../surfaces/admin/admin.test-support.ts';
import { buildTestApp, call, demo, engines, type TestApp } from '../../test/helper.ts';
import { activeUser, mailsTo, runCliOn } from './test-support.ts';

// Issue 16, item 4: each of these lower-cases, case-folds or normalises (NFKC) to the address
// of an existing account. Every path refuses them; none reaches that account.
const victim = 'kirsten.ross@grand-hotel.test';
const lookAlikes: [string, string][] = [
  ['KELVIN SIGN', '\u212Airsten.ross@grand-hotel.test'],
  ['long s', 'kirsten.ro\u017F\u017F@grand-hotel.test'],
  ['fullwidth letters', '\uFF4Birsten.ross@grand-hotel.test'],
  ['dotless i', 'k\u0131rsten.ross@grand-hotel.test'],
  ['a fullwidth domain', 'kirsten.ross@grand-hotel.\uFF54est'],
  ['KELVIN SIGN among capitals', '\u212AIRSTEN.ROSS@GRAND-HOTEL.TEST'],
];
const state = 'state-0123456789abcdef';

describe.each(engines)('look-alike e-mail addresses on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let dir: string;

  beforeAll(async () => {
    t = await buildTestApp(engine);
    await activeUser(t, victim, demo.password);
    owner = await operatorToken(t, 'lookalike-owner', 'owner');
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-lookalike-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A 400 naming the e-mail field, in the contract's error shape. */
  const expectRefused = (response: { statusCode: number; json(): unknown }, field = 'email') => {
    expect(response.statusCode).toBe(400);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe(errorCodes.validationFailed);
    expect(Object.keys(body.fields ?? {})).toContain(field);
    return body;
  };
  const accountsLike = async () =>
    (
      await t.services.db
        .selectFrom('users')
        .select('email')
        .where('tenant_code', '=', 'grand-hotel')
        .where('email', 'like', '%rsten%')
        .execute()
    ).map((row) => row.email);

  it('still folds plain ASCII capitals: the owner signs in with any case', async () => {
    const response = await call(t.app, 'POST', '/api/login', {
      body: { email: ' KIRSTEN.Ross@Grand-Hotel.TEST ', password: demo.password, state },
    });
    expect(response.statusCode, response.body).toBe(200);
    loginResponse.parse(response.json());
  });

  it.each(lookAlikes)(
    'sign-in refuses %s with the answer an unknown look-alike gets, even with the right password',
    async (_name, address) => {
      const response = await call(t.app, 'POST', '/api/login', {
        body: { email: address, password: demo.password, state },
      });
      const body = expectRefused(response);
      // The same answer whether or not an account folds to it: nothing to enumerate.
      const unknown = await call(t.app, 'POST', '/api/login', {
        body: { email: address.replace(/rsten/i, 'rstin'), password: demo.password, state },
      });
      expect(unknown.statusCode).toBe(400);
      expect(apiErrorSchema.parse(unknown.json())).toEqual(body);
    },
  );

  it.each(lookAlikes)(
    'reset, activation and verification mail refuse %s and send nothing',
    async (_name, address) => {
      for (const url of [
        lifecycleApi.resetPassword(address),
        lifecycleApi.resendActivation(address),
        lifecycleApi.sendVerification(address),
      ]) {
        expectRefused(await call(t.app, 'POST', url, { body: {} }));
      }
      expectRefused(
        await call(t.app, 'PATCH', lifecycleApi.verifyEmail, {
          body: { email: address, token: 'x'.repeat(32) },
        }),
      );
      expect(await mailsTo(t, victim)).toEqual([]);
    },
  );

  it.each(lookAlikes)(
    'the admin API refuses %s for an invitation, a search and an operator',
    async (_name, address) => {
      expectRefused(
        await adminCall(t.app, 'POST', '/tenants/grand-hotel/users', {
          token: owner,
          body: { email: address, type: 'staff' },
        }),
      );
      expectRefused(
        await adminCall(t.app, 'GET', `/tenants/grand-hotel/users?email=${encodeURIComponent(address)}`, {
          token: owner,
        }),
      );
      expectRefused(
        await adminCall(t.app, 'POST', '/operators/people', {
          token: owner,
          body: { email: address, role: 'help_desk' },
        }),
      );
      expect(await accountsLike()).toEqual([victim]);
    },
  );

  it('the admin search folds ASCII capitals in a prefix, and refuses a look-alike prefix', async () => {
    const found = await adminCall(t.app, 'GET', '/tenants/grand-hotel/users?email=KIRSTEN', { token: owner });
    expect(found.statusCode, found.body).toBe(200);
    expect(adminUserListResponse.parse(found.json()).users.map((user) => user.email)).toEqual([victim]);
    expectRefused(
      await adminCall(t.app, 'GET', '/tenants/grand-hotel/users?email=%E2%84%AAIR', { token: owner }),
    );
  });

  it('the admin invitation of a plain ASCII address in capitals lands on the canonical address', async () => {
    const invited = await adminCall(t.app, 'POST', '/tenants/grand-hotel/users', {
      token: owner,
      body: { email: 'New.Person@Grand-Hotel.TEST', type: 'staff' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(adminInviteResponse.parse(invited.json()).user.email).toBe('new.person@grand-hotel.test');
  });

  it.each(lookAlikes)('keycard apply and the CLI refuse %s', async (_name, address) => {
    const file = path.join(dir, `invite-${Math.random().toString(36).slice(2)}.json`);
    const code = `lookalike-${Math.random().toString(36).slice(2, 8)}`;
    const tenant = {
      code,
      loginDomain: `${code}.localhost`,
      defaultRedirectUri: 'https://app.example.com/',
      loginClientId: `${code}-app`,
      theme: testTheme('Look-alike test'),
      clients: [
        { clientId: `${code}-app`, redirectUris: ['https://app.example.com/cb'], authMethod: 'none' },
      ],
      invitations: [
        { email: victim, type: 'staff' },
        { email: address, type: 'staff' },
      ],
    };
    writeFileSync(file, JSON.stringify({ tenants: [tenant] }));
    const applied = await runCliOn(t, 'apply', '-f', file);
    expect(applied.code).toBe(1);
    expect(applied.err).toContain(`${file}: tenants[0].invitations[1].email: `);

    for (const argv of [
      ['invite', '--tenant', 'grand-hotel', '--email', address],
      ['registration-link', '--tenant', 'grand-hotel', '--email', address],
      ['disable-user', '--tenant', 'grand-hotel', '--email', address],
      ['operators', 'create-owner', '--email', address],
    ]) {
      const result = await runCliOn(t, ...argv);
      expect(result.code, argv.join(' ')).not.toBe(0);
      expect(result.err, argv.join(' ')).toContain('e-mail address');
    }
    expect(await accountsLike()).toEqual([victim]);
    const account = await t.services.db
      .selectFrom('users')
      .select(['status'])
      .where('email', '=', victim)
      .executeTakeFirstOrThrow();
    expect(account.status).toBe('active');
  });
});
