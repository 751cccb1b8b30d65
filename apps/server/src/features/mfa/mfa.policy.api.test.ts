import { apiErrorSchema, mfaErrors } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { findUserByEmail } from '../accounts/user.repository.ts';
import {
  enrolTotp,
  grandHotel,
  mfaCall,
  newUser,
  passwordSignIn,
  summit,
  updateTenantSettings,
} from './mfa.test-support.ts';

const authorize = (t: TestApp, who: { host: string }, cookie: string) =>
  call(t.app, 'POST', '/api/authorize', { host: who.host, cookie, body: {} });

describe.each(engines)('tenant MFA policy and the sign-in state on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('keeps password-only sign-in where MFA is off (grand-hotel, seaside)', async () => {
    const { cookie, identity } = await passwordSignIn(t.app, grandHotel);
    expect(identity.state).toBe('AUTHENTICATED');
    expect(identity.mfaRequiredByRemainingInDays).toBeNull();
    expect((await authorize(t, grandHotel, cookie)).statusCode).toBe(200);
  });

  it('requires registration on summit (MFA required) and refuses to hand the session to an app', async () => {
    const { cookie, identity } = await passwordSignIn(t.app, summit);
    expect(identity).toMatchObject({ state: 'MFA_REGISTRATION_REQUIRED', mfaRequiredByRemainingInDays: 0 });
    const refused = await authorize(t, summit, cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('session.incomplete');
    const status = await mfaCall(t, summit, 'GET', '/api/mfa/status', cookie);
    expect(status.json()).toMatchObject({
      state: 'MFA_REGISTRATION_REQUIRED',
      canSkip: false,
      factor: null,
      trustedDeviceDays: 60,
      phoneAvailable: true,
    });
  });

  it('recommends MFA with the days left until its mandatory date, then requires it', async () => {
    const now = t.clock.now();
    await updateTenantSettings(t, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: now + 10 * DAY + DAY / 2, trustedDeviceDays: 60 },
    });
    try {
      const who = await newUser(t, grandHotel);
      const first = await passwordSignIn(t.app, who);
      expect(first.identity).toMatchObject({
        state: 'MFA_REGISTRATION_RECOMMENDED',
        mfaRequiredByRemainingInDays: 11,
      });
      // Recommended may be postponed: the session is complete.
      expect((await authorize(t, who, first.cookie)).statusCode).toBe(200);
      const status = await mfaCall(t, who, 'GET', '/api/mfa/status', first.cookie);
      expect(status.json()).toMatchObject({ canSkip: true, mfaRequiredByRemainingInDays: 11 });

      t.clock.advance(10 * DAY);
      expect((await passwordSignIn(t.app, who)).identity.mfaRequiredByRemainingInDays).toBe(1);
      t.clock.advance(DAY);
      const late = await passwordSignIn(t.app, who);
      expect(late.identity).toMatchObject({
        state: 'MFA_REGISTRATION_REQUIRED',
        mfaRequiredByRemainingInDays: 0,
      });
      expect((await authorize(t, who, late.cookie)).statusCode).toBe(403);
    } finally {
      t.clock.advance(-11 * DAY);
      await updateTenantSettings(t, 'grand-hotel', {
        mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
      });
    }
  });

  it('recommends MFA without a date: no days left, never mandatory', async () => {
    await updateTenantSettings(t, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: null, trustedDeviceDays: 60 },
    });
    try {
      const who = await newUser(t, grandHotel);
      const { identity } = await passwordSignIn(t.app, who);
      expect(identity).toMatchObject({
        state: 'MFA_REGISTRATION_RECOMMENDED',
        mfaRequiredByRemainingInDays: null,
      });
    } finally {
      await updateTenantSettings(t, 'grand-hotel', {
        mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
      });
    }
  });

  it('asks an enrolled user for a code whatever the policy, until MFA is passed in the session', async () => {
    await updateTenantSettings(t, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: null, trustedDeviceDays: 60 },
    });
    const who = await newUser(t, grandHotel);
    try {
      const first = await passwordSignIn(t.app, who);
      await enrolTotp(t, who, first.cookie);
      expect((await authorize(t, who, first.cookie)).statusCode).toBe(200);
    } finally {
      await updateTenantSettings(t, 'grand-hotel', {
        mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
      });
    }
    // The tenant turned MFA off again; the factor the user set up still protects the account.
    const next = await passwordSignIn(t.app, who);
    expect(next.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    expect((await authorize(t, who, next.cookie)).statusCode).toBe(403);
    const session = await call(t.app, 'GET', '/api/session', { host: who.host, cookie: next.cookie });
    expect(session.json().identity.state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('registers only the factors the tenant offers (settings mfa.methods): others are refused and nothing is kept', async () => {
    const required = { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 60 } as const;
    const offering = (methods: Array<'totp' | 'sms' | 'voice' | 'smmobile'>) =>
      updateTenantSettings(t, 'summit', { mfa: { ...required, methods } });
    const phone = { countryCode: '+49', phoneNumber: '015123459876', deliveryType: 'sms' };
    try {
      await offering(['totp']);
      const who = await newUser(t, summit);
      const { cookie } = await passwordSignIn(t.app, who);
      const status = await mfaCall(t, who, 'GET', '/api/mfa/status', cookie);
      expect(status.json().methods).toEqual(['totp']);
      for (const deliveryType of ['sms', 'voice']) {
        const refused = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
          ...phone,
          deliveryType,
        });
        expect(refused.statusCode).toBe(403);
        expect(apiErrorSchema.parse(refused.json()).code).toBe(mfaErrors.methodNotOffered);
      }
      const user = await findUserByEmail(t.services.db, 'summit', who.email);
      const factors = await t.services.db
        .selectFrom('mfa_factors')
        .select('id')
        .where('user_id', '=', user!.id)
        .execute();
      expect(factors).toEqual([]);

      await offering(['sms']);
      const refusedApp = await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie);
      expect(refusedApp.statusCode).toBe(403);
      expect(apiErrorSchema.parse(refusedApp.json()).code).toBe(mfaErrors.methodNotOffered);
      // SMS is offered, a call back to the same number is not.
      const sms = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, phone);
      expect(sms.statusCode).toBe(200);
      t.clock.advance(31_000);
      const call = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, {
        deliveryType: 'voice',
      });
      expect(call.statusCode).toBe(403);
      expect(apiErrorSchema.parse(call.json()).code).toBe(mfaErrors.methodNotOffered);
    } finally {
      await updateTenantSettings(t, 'summit', { mfa: required });
    }
  });
});
