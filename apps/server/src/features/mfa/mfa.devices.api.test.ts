import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { hashToken } from '../../platform/shared/crypto.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import {
  enrolTotp,
  mfaCall,
  newUser,
  passwordSignIn,
  type TestTenant,
  totpAt,
  updateTenantSettings,
} from './mfa.test-support.ts';

describe.each(engines)('trusted devices (user device tokens) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  /** An enrolled user signed in with a code on a device that is now trusted. */
  async function trustedUser() {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const { cookie } = await passwordSignIn(t.app, who);
    await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    t.clock.advance(30_000);
    const issued = await mfaCall(t, who, 'POST', '/api/mfa/user-device-tokens', cookie, { token: 'ignored' });
    expect(issued.statusCode).toBe(200);
    return { who, secret, ...(issued.json() as { userDeviceToken: string; trustedUntil: number }) };
  }

  it('issues a device token right after a code, stored only as a hash, trusted for the tenant period', async () => {
    const before = t.clock.now();
    const { userDeviceToken, trustedUntil } = await trustedUser();
    expect(userDeviceToken.length).toBeGreaterThanOrEqual(43);
    expect(trustedUntil).toBeGreaterThanOrEqual(before + 60 * DAY);
    expect(trustedUntil).toBeLessThanOrEqual(t.clock.now() + 60 * DAY);
    const rows = await t.services.db.selectFrom('mfa_devices').select('id').execute();
    expect(rows.map((r) => r.id)).toContain(hashToken(userDeviceToken));
    expect(rows.map((r) => r.id)).not.toContain(userDeviceToken);
  });

  it('skips MFA on the trusted device within the period, and asks again after it', async () => {
    const { who, userDeviceToken } = await trustedUser();
    const trusted = await passwordSignIn(t.app, who, userDeviceToken);
    expect(trusted.identity.state).toBe('AUTHENTICATED');
    expect(
      (await call(t.app, 'POST', '/api/authorize', { host: who.host, cookie: trusted.cookie, body: {} }))
        .statusCode,
    ).toBe(200);

    // Without the token, on another device: a code is needed.
    expect((await passwordSignIn(t.app, who)).identity.state).toBe('MFA_VERIFICATION_REQUIRED');

    t.clock.advance(59 * DAY);
    expect((await passwordSignIn(t.app, who, userDeviceToken)).identity.state).toBe('AUTHENTICATED');
    t.clock.advance(DAY + 60_000);
    try {
      expect((await passwordSignIn(t.app, who, userDeviceToken)).identity.state).toBe(
        'MFA_VERIFICATION_REQUIRED',
      );
    } finally {
      t.clock.advance(-(60 * DAY + 60_000));
    }
  });

  it("does not trust another user's token, another tenant's token or a forged one", async () => {
    const { userDeviceToken } = await trustedUser();
    const otherUser = await newUser(t);
    await enrolTotp(t, otherUser, (await passwordSignIn(t.app, otherUser)).cookie);
    expect((await passwordSignIn(t.app, otherUser, userDeviceToken)).identity.state).toBe(
      'MFA_VERIFICATION_REQUIRED',
    );

    // The same e-mail on another tenant, enrolled there, presenting summit's token.
    await updateTenantSettings(t, 'seaside', {
      mfa: { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 60 },
    });
    try {
      const seasideUser: TestTenant = await newUser(t, {
        host: 'seaside.localhost:3000',
        email: '',
        code: 'seaside',
      });
      await enrolTotp(t, seasideUser, (await passwordSignIn(t.app, seasideUser)).cookie);
      expect((await passwordSignIn(t.app, seasideUser, userDeviceToken)).identity.state).toBe(
        'MFA_VERIFICATION_REQUIRED',
      );
      for (const forged of ['forged', 'x'.repeat(256), '']) {
        expect((await passwordSignIn(t.app, seasideUser, forged)).identity.state).toBe(
          'MFA_VERIFICATION_REQUIRED',
        );
      }
    } finally {
      await updateTenantSettings(t, 'seaside', {
        mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
      });
    }
  });

  it('uses the tenant trusted-device period', async () => {
    await updateTenantSettings(t, 'summit', {
      mfa: { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 7 },
    });
    try {
      const { who, userDeviceToken } = await trustedUser();
      t.clock.advance(7 * DAY + 1000);
      expect((await passwordSignIn(t.app, who, userDeviceToken)).identity.state).toBe(
        'MFA_VERIFICATION_REQUIRED',
      );
      t.clock.advance(-(7 * DAY + 1000));
    } finally {
      await updateTenantSettings(t, 'summit', {
        mfa: { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 60 },
      });
    }
  });

  it('issues no token without a fresh factor check: not after the password, not to a trusted-device session', async () => {
    const { who, userDeviceToken } = await trustedUser();
    const passwordOnly = await passwordSignIn(t.app, who);
    const refused = await mfaCall(t, who, 'POST', '/api/mfa/user-device-tokens', passwordOnly.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('mfa.fresh_verification_required');

    // A session that skipped MFA thanks to its device must not extend its own trust.
    const byDevice = await passwordSignIn(t.app, who, userDeviceToken);
    const extend = await mfaCall(t, who, 'POST', '/api/mfa/user-device-tokens', byDevice.cookie);
    expect(extend.json().code).toBe('mfa.fresh_verification_required');

    // Ten minutes after the code, the check is no longer fresh.
    const fresh = await newUser(t);
    const session = await passwordSignIn(t.app, fresh);
    await enrolTotp(t, fresh, session.cookie);
    t.clock.advance(10 * 60_000);
    const stale = await mfaCall(t, fresh, 'POST', '/api/mfa/user-device-tokens', session.cookie);
    expect(stale.json().code).toBe('mfa.fresh_verification_required');

    const notEnrolled = await newUser(t);
    const plain = await passwordSignIn(t.app, notEnrolled);
    expect(
      (await mfaCall(t, notEnrolled, 'POST', '/api/mfa/user-device-tokens', plain.cookie)).json().code,
    ).toBe('mfa.not_enrolled');
  });

  it('reports amr mfa for a device-trusted session in the session facts', async () => {
    const { who, userDeviceToken } = await trustedUser();
    const byDevice = await passwordSignIn(t.app, who, userDeviceToken);
    const status = (await mfaCall(t, who, 'GET', '/api/mfa/status', byDevice.cookie)).json();
    expect(status).toMatchObject({ state: 'AUTHENTICATED', freshVerification: false });
  });
});

describe.each(engines)('recovery codes and MFA reset on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('signs in with a recovery code instead of a factor, once per code', async () => {
    const who = await newUser(t);
    const { recoveryCodes } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const first = await passwordSignIn(t.app, who);
    // Upper case and without the dash work too: people type what they read.
    const typed = recoveryCodes[0]!.replace('-', '').toUpperCase();
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', first.cookie, { recoveryCode: typed });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ state: 'AUTHENTICATED', recoveryCodesRemaining: 9 });

    const second = await passwordSignIn(t.app, who);
    const reused = await mfaCall(t, who, 'POST', '/api/mfa/verify', second.cookie, {
      recoveryCode: recoveryCodes[0],
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('mfa.code_invalid');
    const unknown = await mfaCall(t, who, 'POST', '/api/mfa/verify', second.cookie, {
      recoveryCode: 'aaaaa-bbbbb',
    });
    expect(unknown.json().code).toBe('mfa.code_invalid');
  });

  it('does not accept a recovery code to confirm a registration', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie);
    const response = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      recoveryCode: 'aaaaa-bbbbb',
    });
    expect(response.json().code).toBe('mfa.code_invalid');
  });

  it('regenerates recovery codes after a fresh MFA check; the old ones stop working', async () => {
    const who = await newUser(t);
    const { recoveryCodes } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const passwordOnly = await passwordSignIn(t.app, who);
    const refused = await mfaCall(t, who, 'POST', '/api/mfa/recovery-codes', passwordOnly.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('mfa.fresh_verification_required');

    await mfaCall(t, who, 'POST', '/api/mfa/verify', passwordOnly.cookie, { recoveryCode: recoveryCodes[1] });
    const renewed = await mfaCall(t, who, 'POST', '/api/mfa/recovery-codes', passwordOnly.cookie);
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);

    const next = await passwordSignIn(t.app, who);
    const old = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, {
      recoveryCode: recoveryCodes[2],
    });
    expect(old.json().code).toBe('mfa.code_invalid');
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, { recoveryCode: fresh[0] });
    expect(ok.json().recoveryCodesRemaining).toBe(9);
  });

  it('resets MFA after a factor code: factors, recovery codes and trusted devices are gone', async () => {
    const who = await newUser(t);
    const { secret, recoveryCodes } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const session = await passwordSignIn(t.app, who);
    await mfaCall(t, who, 'POST', '/api/mfa/verify', session.cookie, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    const { userDeviceToken } = (
      await mfaCall(t, who, 'POST', '/api/mfa/user-device-tokens', session.cookie)
    ).json();
    t.clock.advance(30_000);

    const reset = await mfaCall(t, who, 'POST', '/api/mfa/reset', session.cookie, {
      proof: { code: await totpAt(secret, t.clock.now()), deliveryType: 'totp' },
      redirectUri: 'http://localhost:3001/callback',
    });
    expect(reset.statusCode).toBe(200);
    // summit requires MFA: the user must register again; the registered redirect comes back.
    expect(reset.json()).toEqual({
      state: 'MFA_REGISTRATION_REQUIRED',
      redirectUri: 'http://localhost:3001/callback',
    });
    expect((await mfaCall(t, who, 'GET', '/api/mfa/status', session.cookie)).json()).toMatchObject({
      factor: null,
      recoveryCodesRemaining: 0,
    });
    expect((await passwordSignIn(t.app, who, userDeviceToken)).identity.state).toBe(
      'MFA_REGISTRATION_REQUIRED',
    );
    const user = await t.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', who.email)
      .executeTakeFirstOrThrow();
    const left = await t.services.db
      .selectFrom('mfa_recovery_codes')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toHaveLength(0);
    expect(recoveryCodes).toHaveLength(10);
  });

  it('resets MFA with a recovery code (the lost-phone case), and never answers an unregistered redirect', async () => {
    const who = await newUser(t);
    const { recoveryCodes } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const session = await passwordSignIn(t.app, who);
    const reset = await mfaCall(t, who, 'POST', '/api/mfa/reset', session.cookie, {
      proof: { recoveryCode: recoveryCodes[3] },
      redirectUri: 'https://evil.example/after-reset',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ state: 'MFA_REGISTRATION_REQUIRED', redirectUri: null });
  });

  it('keeps the factor when the proof is wrong, and answers not_enrolled when there is nothing to reset', async () => {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const session = await passwordSignIn(t.app, who);
    const good = await totpAt(secret, t.clock.now());
    const wrong = good === '999999' ? '000000' : '999999';
    const refused = await mfaCall(t, who, 'POST', '/api/mfa/reset', session.cookie, {
      proof: { code: wrong, deliveryType: 'totp' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('mfa.code_invalid');
    expect((await mfaCall(t, who, 'GET', '/api/mfa/status', session.cookie)).json().factor).toMatchObject({
      deliveryType: 'totp',
    });

    const plain = await newUser(t);
    const plainSession = await passwordSignIn(t.app, plain);
    const nothing = await mfaCall(t, plain, 'POST', '/api/mfa/reset', plainSession.cookie, {
      proof: { recoveryCode: 'aaaaa-bbbbb' },
    });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('mfa.not_enrolled');
  });
});
