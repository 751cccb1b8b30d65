import { mfaStatusResponse, mobileErrors } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { codeOf, documents, gql } from '../mobile/mobile.test-support.ts';
import { grandHotel, mfaCall, newUser, passwordSignIn, updateTenantSettings } from './mfa.test-support.ts';

const required = { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 60 } as const;

/**
 * Issue 19 item 12: a tenant that never named its factors has no device app, so the partner app
 * is neither reported as a method nor set up; listing smmobile (its app is ready) offers it.
 */
describe.each(engines)('the partner app only once the tenant has a device app, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('offers totp, sms and voice to a tenant without mfa.methods, and no partner app', async () => {
    await updateTenantSettings(t, grandHotel.code, { mfa: { ...required } });
    try {
      const who = await newUser(t, grandHotel);
      const { cookie } = await passwordSignIn(t.app, who);
      const status = await mfaCall(t, who, 'GET', '/api/mfa/status', cookie);
      expect(status.statusCode).toBe(200);
      expect(mfaStatusResponse.parse(status.json()).methods).toEqual(['totp', 'sms', 'voice']);
      const setup = await gql(t, who.host, documents.setup, { replace: false }, { cookie });
      expect(codeOf(setup)).toBe(mobileErrors.notOffered);
    } finally {
      await updateTenantSettings(t, grandHotel.code, { mfa: { ...required, mode: 'off' } });
    }
  });

  it('offers the partner app once the tenant lists it, in the order it lists the factors', async () => {
    await updateTenantSettings(t, grandHotel.code, { mfa: { ...required, methods: ['totp', 'smmobile'] } });
    try {
      const who = await newUser(t, grandHotel);
      const { cookie } = await passwordSignIn(t.app, who);
      const status = await mfaCall(t, who, 'GET', '/api/mfa/status', cookie);
      expect(mfaStatusResponse.parse(status.json()).methods).toEqual(['totp', 'smmobile']);
      const setup = await gql(t, who.host, documents.setup, { replace: false }, { cookie });
      expect(setup.errors).toBeUndefined();
      expect(setup.data?.setupMasterDevice).toMatchObject({ expiresInSeconds: 120 });
    } finally {
      await updateTenantSettings(t, grandHotel.code, { mfa: { ...required, mode: 'off' } });
    }
  });
});
