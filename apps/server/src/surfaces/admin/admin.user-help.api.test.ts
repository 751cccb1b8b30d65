import { randomUUID } from 'node:crypto';
import {
  adminErrors,
  adminPasskeyListResponse,
  adminPasskeyRemoveResponse,
  adminSecretAnswerResponse,
  adminSecretQuestionResponse,
  adminTenantSchema,
  adminUserActionResponse,
  adminUserListResponse,
  apiErrorSchema,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../features/accounts/password.service.ts';
import { normalizeSecretAnswer } from '../../features/accounts/password-policy.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { buildTestApp, demo, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, adminFixtures, operatorToken } from './admin.test-support.ts';

/**
 * The help desk's tools (issues 18 and 19): the passkey and security-mail settings, a user's
 * passkeys listed and removed, an MFA reset that takes the passkeys too, the list paged with
 * each account's state so only the actions that fit are offered, and the secret question.
 */
describe.each(engines)(
  'admin API: settings, passkeys, user state and the secret question on %s',
  (engine) => {
    let t: TestApp;
    let owner: string;
    beforeAll(async () => {
      t = await buildTestApp(engine);
      owner = await operatorToken(t, 'help-owner', 'owner');
    });
    afterAll(() => t.close());
    const { tenantFor, invitedUser } = adminFixtures(
      () => t,
      () => owner,
    );

    const db = () => t.services.db;
    let made = 0;
    async function addPasskey(code: string, userId: string, input: { name: string; synced: boolean }) {
      const id = randomUUID();
      made += 1;
      await db()
        .insertInto('passkey_credentials')
        .values({
          id,
          tenant_code: code,
          user_id: userId,
          credential_id: randomUUID().replaceAll('-', ''),
          public_key: 'pQECAyYgASFYIA',
          counter: 0,
          transports: JSON.stringify(input.synced ? ['hybrid', 'internal'] : ['usb']),
          rp_id: `${code}.localhost`,
          aaguid: '00000000-0000-0000-0000-000000000000',
          backup_eligible: input.synced ? 1 : 0,
          backed_up: input.synced ? 1 : 0,
          name: input.name,
          created_at: 1_790_000_000_000 + made,
          last_used_at: input.synced ? 1_795_000_000_000 : null,
        })
        .execute();
      return id;
    }
    const passkeysLeft = async (userId: string) =>
      (await db().selectFrom('passkey_credentials').select('id').where('user_id', '=', userId).execute())
        .length;
    const entries = async (action: string, targetId: string) =>
      (
        await db()
          .selectFrom('audit_log')
          .selectAll()
          .where('action', '=', action)
          .where('target_id', '=', targetId)
          .execute()
      ).map((row) => ({ before: row.before, after: row.after }));

    it('changes the passkey and security-mail settings, raising the version; an auditor cannot', async () => {
      await tenantFor('help-settings');
      const read = adminTenantSchema.parse(
        (await adminCall(t.app, 'GET', '/tenants/help-settings', { token: owner })).json(),
      );
      expect(read.settings).toMatchObject({ passkeys: 'offered', securityMail: { newBrowserSignIn: false } });
      const changed = await adminCall(t.app, 'PATCH', '/tenants/help-settings/settings', {
        token: owner,
        body: { passkeys: 'preferred', securityMail: { newBrowserSignIn: true } },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const tenant = adminTenantSchema.parse(changed.json());
      expect(tenant.settings).toMatchObject({
        passkeys: 'preferred',
        securityMail: { newBrowserSignIn: true },
      });
      expect(tenant.version).toBeGreaterThan(read.version);
      await t.services.tenants.refresh();
      expect((await t.services.tenants.byCode('help-settings'))!.settings).toMatchObject({
        passkeys: 'preferred',
        securityMail: { newBrowserSignIn: true },
      });
      const [entry] = await entries('tenant.update', 'help-settings').then((all) => all.slice(-1));
      expect(JSON.parse(entry!.after!)).toMatchObject({
        'settings.passkeys': 'preferred',
        'settings.securityMail.newBrowserSignIn': true,
      });

      const wrong = await adminCall(t.app, 'PATCH', '/tenants/help-settings/settings', {
        token: owner,
        body: { passkeys: 'always' },
      });
      expect(wrong.statusCode).toBe(400);
      const auditor = await operatorToken(t, 'help-settings-auditor', 'auditor', ['help-settings']);
      const refused = await adminCall(t.app, 'PATCH', '/tenants/help-settings/settings', {
        token: auditor,
        body: { passkeys: 'off' },
      });
      expect(refused.statusCode).toBe(403);
    });

    it('lists the passkeys; removes one audited, with a security mail; scoped and read-only operators cannot', async () => {
      await tenantFor('help-keys');
      const userId = await invitedUser('help-keys', 'keys@help-keys.example');
      const phone = await addPasskey('help-keys', userId, { name: 'iPhone', synced: true });
      const key = await addPasskey('help-keys', userId, { name: 'YubiKey 5', synced: false });
      const base = `/tenants/help-keys/users/${userId}/passkeys`;

      const listed = adminPasskeyListResponse.parse(
        (await adminCall(t.app, 'GET', base, { token: owner })).json(),
      );
      expect(listed.passkeys).toEqual([
        {
          id: expect.any(String),
          name: expect.any(String),
          createdAt: expect.any(Number),
          lastUsedAt: expect.anything(),
          synced: expect.any(Boolean),
          rpId: 'help-keys.localhost',
        },
        expect.anything(),
      ]);
      expect(listed.passkeys.map((each) => [each.name, each.synced, each.lastUsedAt])).toEqual([
        ['iPhone', true, 1_795_000_000_000],
        ['YubiKey 5', false, null],
      ]);
      // Nothing of the key itself is shown.
      expect(JSON.stringify(listed)).not.toContain('pQECAyYgASFYIA');

      // A help desk of another tenant cannot see or remove them; an auditor of this one sees but cannot remove.
      const elsewhere = await operatorToken(t, 'help-keys-other-desk', 'help_desk', ['grand-hotel']);
      for (const [method, url] of [
        ['GET', base],
        ['DELETE', `${base}/${phone}`],
      ] as const) {
        const answer = await adminCall(t.app, method, url, { token: elsewhere });
        expect(answer.statusCode, `${method} ${url}`).toBe(403);
        expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.forbidden);
      }
      const auditor = await operatorToken(t, 'help-keys-auditor', 'auditor', ['help-keys']);
      expect((await adminCall(t.app, 'GET', base, { token: auditor })).statusCode).toBe(200);
      const viewerRemoval = await adminCall(t.app, 'DELETE', `${base}/${phone}`, { token: auditor });
      expect(viewerRemoval.statusCode).toBe(403);
      expect(await passkeysLeft(userId)).toBe(2);

      // Another account's passkey is not reached through this one.
      const other = await findUserByEmail(db(), demo.grandHotel.code, demo.grandHotel.email);
      const foreign = await addPasskey(demo.grandHotel.code, other!.id, { name: 'Foreign', synced: true });
      const across = await adminCall(t.app, 'DELETE', `${base}/${foreign}`, { token: owner });
      expect(adminPasskeyRemoveResponse.parse(across.json()).outcome).toBe('unchanged');
      expect(await passkeysLeft(other!.id)).toBe(1);
      const crossTenant = await adminCall(
        t.app,
        'DELETE',
        `/tenants/help-keys/users/${other!.id}/passkeys/${foreign}`,
        {
          token: owner,
        },
      );
      expect(apiErrorSchema.parse(crossTenant.json()).code).toBe(adminErrors.userNotFound);

      const desk = await operatorToken(t, 'help-keys-desk', 'help_desk', ['help-keys']);
      const mailsBefore = (
        await db().selectFrom('outbox').select('id').where('tenant_code', '=', 'help-keys').execute()
      ).length;
      const removed = adminPasskeyRemoveResponse.parse(
        (await adminCall(t.app, 'DELETE', `${base}/${phone}`, { token: desk })).json(),
      );
      expect(removed.outcome).toBe('done');
      expect(removed.passkeys.map((each) => each.id)).toEqual([key]);
      const [entry] = await entries('user.remove_passkey', userId);
      expect(JSON.parse(entry!.before!)).toEqual({
        passkey: { id: phone, name: 'iPhone', rpId: 'help-keys.localhost', synced: true },
      });
      const mailsAfter = await db()
        .selectFrom('outbox')
        .select('id')
        .where('tenant_code', '=', 'help-keys')
        .execute();
      expect(mailsAfter.length).toBe(mailsBefore + 1);
      const again = adminPasskeyRemoveResponse.parse(
        (await adminCall(t.app, 'DELETE', `${base}/${phone}`, { token: desk })).json(),
      );
      expect(again.outcome).toBe('unchanged');
      expect(await entries('user.remove_passkey', userId)).toHaveLength(1);
    });

    it('an MFA reset by an operator leaves the account no passkey, and mails its owner', async () => {
      await tenantFor('help-reset');
      const userId = await invitedUser('help-reset', 'reset@help-reset.example');
      await addPasskey('help-reset', userId, { name: 'Pixel', synced: true });
      await addPasskey('help-reset', userId, { name: 'Security key', synced: false });
      const mailsTo = async () =>
        (
          await db()
            .selectFrom('outbox')
            .select('id')
            .where('recipient', '=', 'reset@help-reset.example')
            .execute()
        ).length;
      const mailsBefore = await mailsTo();
      const reset = await adminCall(t.app, 'POST', `/tenants/help-reset/users/${userId}/reset-mfa`, {
        token: owner,
        body: {},
      });
      expect(adminUserActionResponse.parse(reset.json())).toMatchObject({
        outcome: 'done',
        user: { mfaEnrolled: false },
      });
      expect(await passkeysLeft(userId)).toBe(0);
      expect(await mailsTo()).toBe(mailsBefore + 1);
      // Nothing left to reset: said so, and nothing is audited again.
      const again = await adminCall(t.app, 'POST', `/tenants/help-reset/users/${userId}/reset-mfa`, {
        token: owner,
        body: {},
      });
      expect(adminUserActionResponse.parse(again.json()).outcome).toBe('unchanged');
      expect(await entries('user.reset_mfa', userId)).toHaveLength(1);
    });

    it('pages the list with a total, and shows each account’s lockout, MFA and secret question', async () => {
      await tenantFor('help-list');
      const ids: string[] = [];
      for (let index = 0; index < 7; index++)
        ids.push(await invitedUser('help-list', `p${index}@help-list.example`));
      const page = async (query: string) =>
        adminUserListResponse.parse(
          (await adminCall(t.app, 'GET', `/tenants/help-list/users?${query}`, { token: owner })).json(),
        );
      const first = await page('limit=3');
      expect(first.total).toBe(7);
      expect(first.users.map((user) => user.email)).toEqual([
        'p0@help-list.example',
        'p1@help-list.example',
        'p2@help-list.example',
      ]);
      const last = await page('limit=3&offset=6');
      expect(last.users.map((user) => user.email)).toEqual(['p6@help-list.example']);
      expect((await page('email=p1&limit=3')).total).toBe(1);
      expect(first.users[0]).toMatchObject({
        lockedUntil: null,
        mfaEnrolled: false,
        hasSecretQuestion: false,
      });

      // Not locked: unlocking changes nothing, says so, and is not audited.
      const notLocked = await adminCall(t.app, 'POST', `/tenants/help-list/users/${ids[0]}/unlock`, {
        token: owner,
        body: {},
      });
      expect(adminUserActionResponse.parse(notLocked.json()).outcome).toBe('unchanged');
      expect(await entries('user.unlock', ids[0]!)).toHaveLength(0);

      // Locked: the list says until when, and unlocking lifts it.
      const rule = { limit: 1, windowMs: 60_000, lockMs: 60_000 };
      const lockKey = limitKeys.loginEmail('help-list', 'p0@help-list.example');
      const lockedAt = t.clock.now();
      await t.services.limiter.reserve(lockKey, rule, lockedAt);
      expect((await t.services.limiter.fail(lockKey, rule, lockedAt)).locked).toBe(true);
      const locked = (await page('email=p0')).users[0]!;
      expect(locked.lockedUntil).toBe(lockedAt + 60_000);
      const unlocked = await adminCall(t.app, 'POST', `/tenants/help-list/users/${ids[0]}/unlock`, {
        token: owner,
        body: {},
      });
      expect(adminUserActionResponse.parse(unlocked.json())).toMatchObject({
        outcome: 'done',
        user: { lockedUntil: null },
      });
      expect(await entries('user.unlock', ids[0]!)).toHaveLength(1);
    });

    it('shows the secret question, checks spoken answers as activation stored them, audited, limited per operator', async () => {
      await tenantFor('help-secret');
      const userId = await invitedUser('help-secret', 'caller@help-secret.example');
      const bare = await invitedUser('help-secret', 'bare@help-secret.example');
      await db()
        .updateTable('users')
        .set({
          status: 'active',
          secret_question: 'town-where-born',
          secret_answer_hash: await hashPassword(normalizeSecretAnswer('São  Paulo')),
        })
        .where('id', '=', userId)
        .execute();
      const desk = await operatorToken(t, 'help-secret-desk', 'help_desk', ['help-secret']);
      const base = `/tenants/help-secret/users/${userId}/secret-question`;

      const question = await adminCall(t.app, 'GET', base, { token: desk });
      expect(adminSecretQuestionResponse.parse(question.json())).toEqual({ question: 'town-where-born' });
      expect(question.body).not.toMatch(/paulo|argon2/i);
      const none = await adminCall(t.app, 'GET', `/tenants/help-secret/users/${bare}/secret-question`, {
        token: desk,
      });
      expect(none.json()).toEqual({ question: null });

      const check = async (answer: string, token = desk) =>
        adminCall(t.app, 'POST', `${base}/check`, { token, body: { answer } });
      // Compared forgivingly, as at activation: case and spaces do not count.
      expect(adminSecretAnswerResponse.parse((await check('  são paulo ')).json()).result).toBe('match');
      expect(adminSecretAnswerResponse.parse((await check('Rio')).json()).result).toBe('mismatch');
      const notSet = await adminCall(
        t.app,
        'POST',
        `/tenants/help-secret/users/${bare}/secret-question/check`,
        {
          token: desk,
          body: { answer: 'anything' },
        },
      );
      expect(notSet.json()).toEqual({ result: 'not-set' });

      // Audited with the result, never the answer.
      const audited = await entries('user.check_secret_answer', userId);
      expect(audited.map((entry) => JSON.parse(entry.after!).result)).toEqual(['match', 'mismatch']);
      expect(JSON.stringify(audited)).not.toMatch(/paulo|rio/i);

      // Five checks per operator and account; the match gave its count back.
      for (const guess of ['Lima', 'Quito', 'Bogotá', 'Caracas']) {
        expect((await check(guess)).json()).toEqual({ result: 'mismatch' });
      }
      const refused = await check('São Paulo');
      expect(refused.statusCode).toBe(429);
      expect(apiErrorSchema.parse(refused.json()).code).toBe(adminErrors.rateLimited);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another operator (the account's other help desk) still can.
      const colleague = await operatorToken(t, 'help-secret-colleague', 'help_desk', ['help-secret']);
      expect((await check('São Paulo', colleague)).json()).toEqual({ result: 'match' });

      // Who may not act on the account may not check, nor see the question.
      const auditor = await operatorToken(t, 'help-secret-auditor', 'auditor', ['help-secret']);
      expect((await adminCall(t.app, 'GET', base, { token: auditor })).statusCode).toBe(403);
      expect((await check('São Paulo', auditor)).statusCode).toBe(403);
      const elsewhere = await operatorToken(t, 'help-secret-other', 'help_desk', ['grand-hotel']);
      expect((await check('São Paulo', elsewhere)).statusCode).toBe(403);
    });
  },
);
