import { enrolmentTtlSeconds, parseEnrolmentUri } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../platform/shared/crypto.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { newUser, passwordSignIn, summit } from '../mfa/mfa.test-support.ts';
import { setupEvent } from './enrolment.service.ts';
import { memoryEvents } from './events.ts';
import { codeOf, documents, endpointOf, enrolDevice, gql, TestDevice } from './mobile.test-support.ts';

describe.each(engines)('mobile-app MFA enrolment (setupMasterDevice) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const deps = () => ({
    db: t.services.db,
    config: t.services.config,
    key: t.services.secrets.encryptionKey,
    clock: t.clock,
    events: memoryEvents(),
    log: { info() {}, warn() {} },
  });

  async function startSetup(cookie: string, replace = false) {
    const setup = await gql(t, summit.host, documents.setup, { replace }, { cookie });
    expect(setup.status).toBe(200);
    expect(setup.errors).toBeUndefined();
    return setup.data!.setupMasterDevice as {
      setupId: string;
      enrolmentUri: string;
      qrCode: string;
      expiresAt: number;
      expiresInSeconds: number;
    };
  }

  async function setupStatus(_cookie: string, setupId: string) {
    const row = await t.services.db
      .selectFrom('mobile_enrolments')
      .select('session_id')
      .where('id', '=', setupId)
      .executeTakeFirstOrThrow();
    return (
      await setupEvent(
        deps(),
        (await t.services.tenants.byCode('summit'))!,
        row.session_id,
        setupId,
        t.clock.now(),
      )
    ).status;
  }

  it('enrols the app: a 256-bit token stored only as its hash, a QR code, the device stored with its public key, MFA passed and recovery codes', async () => {
    const who = await newUser(t);
    const { cookie, identity } = await passwordSignIn(t.app, who);
    expect(identity.state).toBe('MFA_REGISTRATION_REQUIRED');
    const setup = await startSetup(cookie);
    expect(setup.expiresInSeconds).toBe(enrolmentTtlSeconds);
    expect(setup.expiresAt - t.clock.now()).toBeGreaterThan(118_000);
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const uri = parseEnrolmentUri(setup.enrolmentUri)!;
    expect(uri).toEqual({ endpoint: endpointOf(summit.host), token: expect.any(String), tenant: 'summit' });
    expect(uri.token).toMatch(/^[\w-]{43}$/);
    const stored = await t.services.db
      .selectFrom('mobile_enrolments')
      .selectAll()
      .where('id', '=', setup.setupId)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(uri.token));
    expect(JSON.stringify(stored)).not.toContain(uri.token);
    expect(await setupStatus(cookie, setup.setupId)).toBe('WAITING');

    const device = await TestDevice.create();
    const registered = await gql(t, summit.host, documents.register, {
      proof: await device.enrolProof(setup.enrolmentUri, t.clock.now(), {
        claims: { deviceName: 'Ada’s phone' },
      }),
    });
    expect(registered.errors).toBeUndefined();
    const session = registered.data!.registerMasterDevice as {
      accessToken: string;
      account: string;
      tenantName: string;
      device: { id: string; name: string; platform: string };
    };
    expect(session).toMatchObject({ account: who.email, tenantName: 'Summit' });
    expect(session.device).toMatchObject({ name: 'Ada’s phone', platform: 'WEB' });
    expect(session.accessToken).toMatch(/^[\w-]{43}$/);
    expect(await setupStatus(cookie, setup.setupId)).toBe('COMPLETED');
    // The owner hears of the new factor: a security mail and an entry of the recent activity.
    const mail = await t.services.db
      .selectFrom('outbox')
      .select(['recipient', 'payload'])
      .where('recipient', '=', who.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.payload).toContain('/account');
    const activity = await t.services.db
      .selectFrom('account_activity as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.kind', 'a.detail'])
      .where('u.email', '=', who.email)
      .execute();
    expect(activity).toContainEqual(expect.objectContaining({ kind: 'factor-added' }));
    expect(activity.find((entry) => entry.kind === 'factor-added')?.detail).toContain('mobile-app');
    const row = await t.services.db
      .selectFrom('mobile_devices')
      .selectAll()
      .where('id', '=', session.device.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.public_jwk)).toEqual(device.jwk);

    const finished = await gql(t, summit.host, documents.finish, { setupId: setup.setupId }, { cookie });
    expect(finished.errors).toBeUndefined();
    const result = finished.data!.finishMasterDeviceSetup as { state: string; recoveryCodes: string[] };
    expect(result.state).toBe('AUTHENTICATED');
    expect(result.recoveryCodes).toHaveLength(10);
    // Once only.
    const again = await gql(t, summit.host, documents.finish, { setupId: setup.setupId }, { cookie });
    expect(codeOf(again)).toBe('mobile.not_found');

    const status = await call(t.app, 'GET', '/api/mfa/status', { host: summit.host, cookie });
    expect(status.json()).toMatchObject({
      factor: { deliveryType: 'smmobile', deviceName: 'Ada’s phone', phone: null },
      methods: ['totp', 'sms', 'voice', 'smmobile'],
      recoveryCodesRemaining: 10,
    });
    const masterDevice = await gql(t, summit.host, documents.masterDevice, {}, { cookie });
    expect(masterDevice.data).toEqual({
      masterDevice: {
        id: session.device.id,
        name: 'Ada’s phone',
        platform: 'WEB',
        createdAt: expect.any(Number),
        lastUsedAt: expect.any(Number),
      },
    });

    // A new sign-in now needs the app's approval.
    const next = await passwordSignIn(t.app, who);
    expect(next.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('refuses an expired token (SETUP_TIMEOUT_FAILED) and a used one', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const setup = await startSetup(cookie);
    const device = await TestDevice.create();
    t.clock.advance((enrolmentTtlSeconds + 1) * 1000);
    try {
      const late = await gql(t, summit.host, documents.register, {
        proof: await device.enrolProof(setup.enrolmentUri, t.clock.now()),
      });
      expect(late.status).toBe(200);
      expect(codeOf(late)).toBe('mobile.setup_timeout');
      expect(late.errors![0]!.extensions.status).toBe(410);
      expect(await setupStatus(cookie, setup.setupId)).toBe('SETUP_TIMEOUT_FAILED');
    } finally {
      t.clock.advance(-(enrolmentTtlSeconds + 1) * 1000);
    }

    const fresh = await startSetup(cookie);
    const first = await gql(t, summit.host, documents.register, {
      proof: await device.enrolProof(fresh.enrolmentUri, t.clock.now()),
    });
    expect(first.errors).toBeUndefined();
    const other = await TestDevice.create();
    const second = await gql(t, summit.host, documents.register, {
      proof: await other.enrolProof(fresh.enrolmentUri, t.clock.now()),
    });
    expect(codeOf(second)).toBe('mobile.setup_timeout');
  });

  it('refuses bad proofs with mobile.setup_failed and marks the enrolment SETUP_FAILED', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const device = await TestDevice.create();
    const stranger = await TestDevice.create();
    const now = () => t.clock.now();
    const bad = [
      [
        'another audience',
        (uri: string) =>
          device.enrolProof(uri, now(), { claims: { aud: endpointOf('seaside.localhost:3000') } }),
      ],
      ['the wrong typ', (uri: string) => device.enrolProof(uri, now(), { header: { typ: 'JWT' } })],
      [
        'a private key in the header',
        (uri: string) => device.enrolProof(uri, now(), { header: { jwk: { ...device.jwk, d: 'AAAA' } } }),
      ],
      [
        'a key that did not sign it',
        (uri: string) => device.enrolProof(uri, now(), { header: { jwk: stranger.jwk } }),
      ],
      ['a lifetime over 120 s', (uri: string) => device.enrolProof(uri, now(), { lifetimeSeconds: 600 })],
      [
        'an unknown platform',
        (uri: string) => device.enrolProof(uri, now(), { claims: { platform: 'SYMBIAN' } }),
      ],
      [
        'an empty device name',
        (uri: string) => device.enrolProof(uri, now(), { claims: { deviceName: ' ' } }),
      ],
    ] as const;
    for (const [label, makeProof] of bad) {
      const setup = await startSetup(cookie);
      const answer = await gql(t, summit.host, documents.register, {
        proof: await makeProof(setup.enrolmentUri),
      });
      expect(answer.status, label).toBe(200);
      expect(codeOf(answer), label).toBe('mobile.setup_failed');
      expect(await setupStatus(cookie, setup.setupId), label).toBe('SETUP_FAILED');
    }
    const garbage = await gql(t, summit.host, documents.register, { proof: 'not-a-jwt' });
    expect(codeOf(garbage)).toBe('mobile.setup_failed');
    const factors = await t.services.db
      .selectFrom('mfa_factors')
      .innerJoin('users', 'users.id', 'mfa_factors.user_id')
      .select('mfa_factors.id')
      .where('users.email', '=', who.email)
      .execute();
    expect(factors).toEqual([]);
  });

  it('allows one primary device: a second is refused, replacing needs a fresh MFA check and ends the old device and other sessions', async () => {
    const who = await newUser(t);
    const first = await passwordSignIn(t.app, who);
    const { device: old } = await enrolDevice(t, summit.host, first.cookie);

    const refused = await gql(t, summit.host, documents.setup, { replace: false }, { cookie: first.cookie });
    expect(codeOf(refused)).toBe('mobile.device_exists');
    // Someone with only the password cannot put their own phone in its place.
    const attacker = await passwordSignIn(t.app, who);
    expect(attacker.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    const takeover = await gql(
      t,
      summit.host,
      documents.setup,
      { replace: true },
      { cookie: attacker.cookie },
    );
    expect(codeOf(takeover)).toBe('mfa.fresh_verification_required');

    // A session that passed MFA long ago may not replace it.
    t.clock.advance(11 * 60_000);
    try {
      const stale = await gql(t, summit.host, documents.setup, { replace: true }, { cookie: first.cookie });
      expect(codeOf(stale)).toBe('mfa.fresh_verification_required');
    } finally {
      t.clock.advance(-11 * 60_000);
    }
    const other = await passwordSignIn(t.app, who);
    // The fresh enrolment session (MFA passed at finish) replaces the device.
    const { device: replacement } = await enrolDevice(t, summit.host, first.cookie, { replace: true });
    expect(replacement.id).not.toBe(old.id);
    const oldLogin = await gql(t, summit.host, documents.login, {
      proof: await old.loginProof(endpointOf(summit.host), t.clock.now()),
    });
    expect(codeOf(oldLogin)).toBe('mobile.no_device');
    const oldToken = await gql(t, summit.host, documents.pending, {}, { bearer: old.accessToken! });
    expect(codeOf(oldToken)).toBe('mobile.device_unauthenticated');
    // Invariant 7: the other session ended; the one that replaced the device goes on.
    const otherSession = await call(t.app, 'GET', '/api/session', {
      host: summit.host,
      cookie: other.cookie,
    });
    expect(otherSession.json().exists).toBe(false);
    const ownSession = await call(t.app, 'GET', '/api/session', { host: summit.host, cookie: first.cookie });
    expect(ownSession.json().exists).toBe(true);
  });

  it('refuses the app where the tenant does not offer it, and portal calls without a session or from another origin', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const foreign = await gql(
      t,
      summit.host,
      documents.setup,
      {},
      { cookie, origin: 'https://evil.example' },
    );
    expect(codeOf(foreign)).toBe('common.forbidden_origin');
    const anonymous = await gql(t, summit.host, documents.setup, {});
    expect(codeOf(anonymous)).toBe('session.required');

    const stored = await t.services.db
      .selectFrom('tenants')
      .select('settings')
      .where('code', '=', 'summit')
      .executeTakeFirstOrThrow();
    const settings = JSON.parse(stored.settings);
    await t.services.db
      .updateTable('tenants')
      .set({ settings: JSON.stringify({ ...settings, mfa: { ...settings.mfa, methods: ['totp'] } }) })
      .where('code', '=', 'summit')
      .execute();
    t.services.tenants.invalidate();
    try {
      const notOffered = await gql(t, summit.host, documents.setup, {}, { cookie });
      expect(codeOf(notOffered)).toBe('mobile.not_offered');
      const status = await call(t.app, 'GET', '/api/mfa/status', { host: summit.host, cookie });
      expect(status.json().methods).toEqual(['totp']);
    } finally {
      await t.services.db
        .updateTable('tenants')
        .set({ settings: stored.settings })
        .where('code', '=', 'summit')
        .execute();
      t.services.tenants.invalidate();
    }
  });
});
