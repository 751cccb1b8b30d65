import { generateKeyPairSync } from 'node:crypto';
import { adminUserActionResponse, apiErrorSchema } from '@keycard/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { enrolTotp } from '../../features/mfa/mfa.test-support.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from './admin.test-support.ts';

/**
 * A change and its audit entry commit together or not at all: with the database refusing
 * every audit entry (a trigger), each user action and a partner's removal fails and leaves
 * the account, its factors, its sessions, its lockout and the partner as they were.
 */
describe.each(engines)('audit entries in the change’s transaction on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  const code = demo.grandHotel.code;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    owner = await operatorToken(t, 'atomic-owner', 'owner');
  });
  afterAll(() => t.close());

  async function refuseAudit(on: boolean): Promise<void> {
    const { db } = t.services;
    if (engine === 'sqlite') {
      if (on) {
        await sql`create trigger refuse_audit before insert on audit_log begin select raise(abort, 'audit refused'); end`.execute(
          db,
        );
      } else await sql`drop trigger refuse_audit`.execute(db);
      return;
    }
    if (on) {
      await sql`create or replace function refuse_audit() returns trigger as $$ begin raise exception 'audit refused'; end $$ language plpgsql`.execute(
        db,
      );
      await sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`.execute(
        db,
      );
    } else await sql`drop trigger refuse_audit on audit_log`.execute(db);
  }

  async function entries(action: string, targetId: string): Promise<number> {
    const rows = await t.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', action)
      .where('target_id', '=', targetId)
      .execute();
    return rows.length;
  }

  /** Runs the request with audit entries refused (it must fail), then allowed (it must work). */
  async function refusedThenDone(method: string, url: string, body: unknown) {
    await refuseAudit(true);
    try {
      const failed = await adminCall(t.app, method, url, { token: owner, body });
      expect(failed.statusCode, `${url} ${failed.body}`).toBe(500);
      expect(apiErrorSchema.parse(failed.json()).code).toBe('common.internal');
    } finally {
      await refuseAudit(false);
    }
  }

  async function userNamed(email: string) {
    return findUserByEmail(t.services.db, code, email);
  }

  it('invites and resends activation with their entries, or not at all', async () => {
    const email = 'atomic-invite@grand-hotel.test';
    await refusedThenDone('POST', `/tenants/${code}/users`, { email, type: 'staff' });
    expect(await userNamed(email)).toBeUndefined();
    const outboxFor = async () =>
      (await t.services.db.selectFrom('outbox').select('id').where('recipient', '=', email).execute()).length;
    expect(await outboxFor()).toBe(0);

    const invited = await adminCall(t.app, 'POST', `/tenants/${code}/users`, {
      token: owner,
      body: { email, type: 'staff' },
    });
    expect(invited.statusCode).toBe(201);
    const userId = invited.json().user.id as string;
    expect(await entries('user.invite', userId)).toBe(1);
    expect(await outboxFor()).toBe(1);

    await refusedThenDone('POST', `/tenants/${code}/users/${userId}/resend-activation`, {});
    expect(await outboxFor()).toBe(1);
    expect(await entries('user.resend_activation', userId)).toBe(0);
  });

  it('disables, enables and deletes an account with their entries, or not at all', async () => {
    const user = (await userNamed(demo.grandHotel.email))!;
    const { cookie } = await signIn(t.app);
    const base = `/tenants/${code}/users/${user.id}`;

    await refusedThenDone('POST', `${base}/disable`, {});
    expect((await userNamed(demo.grandHotel.email))?.status).toBe('active');
    // The session the disable would have ended is still there.
    expect(
      (await call(t.app, 'GET', '/api/session', { host: demo.grandHotel.host, cookie })).json(),
    ).toMatchObject({ exists: true });
    expect(await entries('user.disable', user.id)).toBe(0);

    const disabled = await adminCall(t.app, 'POST', `${base}/disable`, { token: owner, body: {} });
    expect(adminUserActionResponse.parse(disabled.json()).outcome).toBe('done');
    expect(await entries('user.disable', user.id)).toBe(1);

    await refusedThenDone('POST', `${base}/enable`, {});
    expect((await userNamed(demo.grandHotel.email))?.status).toBe('disabled');
    const enabled = await adminCall(t.app, 'POST', `${base}/enable`, { token: owner, body: {} });
    expect(adminUserActionResponse.parse(enabled.json()).outcome).toBe('done');
    expect(await entries('user.enable', user.id)).toBe(1);

    await refusedThenDone('DELETE', base, undefined);
    expect((await userNamed(demo.grandHotel.email))?.id).toBe(user.id);
    expect(await entries('user.delete', user.id)).toBe(0);
  });

  it('resets MFA, ends sessions and unlocks with their entries, or not at all', async () => {
    const user = (await userNamed(demo.grandHotel.email))!;
    const base = `/tenants/${code}/users/${user.id}`;
    const { cookie } = await signIn(t.app);
    await enrolTotp(t, demo.grandHotel, cookie);
    const factors = async () =>
      (await t.services.db.selectFrom('mfa_factors').select('id').where('user_id', '=', user.id).execute())
        .length;
    expect(await factors()).toBe(1);

    await refusedThenDone('POST', `${base}/reset-mfa`, {});
    expect(await factors()).toBe(1);
    await refusedThenDone('POST', `${base}/end-sessions`, {});
    expect(
      (await call(t.app, 'GET', '/api/session', { host: demo.grandHotel.host, cookie })).json(),
    ).toMatchObject({ exists: true });

    // A lockout is lifted only once its entry is written.
    const key = limitKeys.loginEmail(code, user.email);
    const rule = { limit: 1, windowMs: 60_000, lockMs: 60_000 };
    await t.services.limiter.reserve(key, rule, t.clock.now());
    expect((await t.services.limiter.fail(key, rule, t.clock.now())).locked).toBe(true);
    await refusedThenDone('POST', `${base}/unlock`, {});
    expect((await t.services.limiter.reserve(key, rule, t.clock.now())).allowed).toBe(false);
    const unlocked = await adminCall(t.app, 'POST', `${base}/unlock`, { token: owner, body: {} });
    expect(unlocked.statusCode).toBe(200);
    expect(await entries('user.unlock', user.id)).toBe(1);
    expect((await t.services.limiter.reserve(key, rule, t.clock.now())).allowed).toBe(true);
  });

  it('removes a partner with its entry, or not at all', async () => {
    const point = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const url = `/tenants/${code}/partners/atomic-partner`;
    const saved = await adminCall(t.app, 'PUT', url, {
      token: owner,
      body: {
        code: 'atomic-partner',
        issuer: 'https://atomic-partner.example',
        jwksUri: null,
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: point.x, y: point.y }] },
      },
    });
    expect(saved.statusCode).toBe(200);
    await refusedThenDone('DELETE', url, undefined);
    const listed = await adminCall(t.app, 'GET', `/tenants/${code}/partners`, { token: owner });
    expect(listed.json().partners.map((partner: { code: string }) => partner.code)).toContain(
      'atomic-partner',
    );
    expect(await entries('partner.remove', 'atomic-partner')).toBe(0);

    const removed = await adminCall(t.app, 'DELETE', url, { token: owner });
    expect(removed.statusCode).toBe(200);
    expect(await entries('partner.remove', 'atomic-partner')).toBe(1);
  });
  it('the shell commands too: disable-user, enable-user, delete-user, invite and partners, or not at all', async () => {
    const email = 'shell-atomic@grand-hotel.test';
    const refusedRun = async (...argv: string[]) => {
      await refuseAudit(true);
      try {
        await expect(runCliOn(t, ...argv)).rejects.toThrow(/audit refused/);
      } finally {
        await refuseAudit(false);
      }
    };
    await refusedRun('invite', '--tenant', code, '--email', email, '--type', 'staff', '--locale', 'en');
    expect(await userNamed(email)).toBeUndefined();
    expect(
      (await runCliOn(t, 'invite', '--tenant', code, '--email', email, '--type', 'staff', '--locale', 'en'))
        .code,
    ).toBe(0);
    await t.services.db.updateTable('users').set({ status: 'active' }).where('email', '=', email).execute();

    await refusedRun('disable-user', '--tenant', code, '--email', email);
    expect((await userNamed(email))?.status).toBe('active');
    expect((await runCliOn(t, 'disable-user', '--tenant', code, '--email', email)).code).toBe(0);
    await refusedRun('enable-user', '--tenant', code, '--email', email);
    expect((await userNamed(email))?.status).toBe('disabled');
    await refusedRun('delete-user', '--tenant', code, '--email', email);
    expect(await userNamed(email)).toBeDefined();

    const partner = ['--tenant', code, '--partner', 'shell-partner'];
    const issuer = [
      '--issuer',
      'https://shell.partner.example',
      '--jwks-uri',
      'https://shell.partner.example/jwks',
    ];
    await refusedRun('partners', 'add', ...partner, ...issuer);
    expect((await runCliOn(t, 'partners', 'show', ...partner)).code).toBe(1);
    expect((await runCliOn(t, 'partners', 'add', ...partner, ...issuer)).code).toBe(0);
    await refusedRun('partners', 'remove', ...partner);
    expect((await runCliOn(t, 'partners', 'show', ...partner)).code).toBe(0);
    expect(await entries('partner.create', 'shell-partner')).toBe(1);
    expect(await entries('partner.remove', 'shell-partner')).toBe(0);
  });
});
