import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { generate } from 'otplib';
import type { Database } from '../../platform/db/schema.ts';
import { call, demo, sessionCookieOf, type TestApp } from '../../test/helper.ts';
import { createUser } from '../accounts/user.repository.ts';
import type { TenantSettings } from '../tenants/tenant.types.ts';

/** Test support for the MFA API tests (not a test file itself). */
export const summit = { host: 'summit.localhost:3000', email: 'demo@summit.test', code: 'summit' };
export const grandHotel = demo.grandHotel;
export type TestTenant = typeof summit;

let counter = 0;

/** A fresh active user, so tests do not share attempt counters or factors. */
export async function newUser(t: TestApp, tenant: TestTenant = summit, locale = 'en'): Promise<TestTenant> {
  counter += 1;
  const email = `user${counter}-${Date.now().toString(36)}@${tenant.code}.test`;
  await createUser(t.services.db, {
    tenantCode: tenant.code,
    email,
    type: 'property',
    locale: locale as 'en',
    status: 'active',
    password: demo.password,
    emailVerified: true,
  });
  return { ...tenant, email };
}

/** Password login and code exchange as the portal does; answers the cookie and the identity. */
export async function passwordSignIn(
  app: FastifyInstance,
  who: TestTenant,
  userDeviceToken?: string,
): Promise<{ cookie: string; identity: { state: string; mfaRequiredByRemainingInDays: number | null } }> {
  const login = await call(app, 'POST', '/api/login', {
    host: who.host,
    body: { email: who.email, password: demo.password, state: 'state-0123456789abcdef' },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const authenticate = await call(app, 'POST', '/api/authenticate', {
    host: who.host,
    body: { code: login.json().code, tenantCode: who.code, ...(userDeviceToken ? { userDeviceToken } : {}) },
  });
  if (authenticate.statusCode !== 200) throw new Error(`authenticate failed: ${authenticate.body}`);
  return { cookie: sessionCookieOf(authenticate)!, identity: authenticate.json() };
}

export function mfaCall(
  t: TestApp,
  who: TestTenant,
  method: 'GET' | 'POST',
  url: string,
  cookie: string | undefined,
  body?: unknown,
) {
  return call(t.app, method, url, {
    host: who.host,
    ...(cookie ? { cookie } : {}),
    ...(method === 'POST' ? { body: body ?? {} } : {}),
  });
}

/** The TOTP code of a secret at the server's (test) clock, `steps` time steps away. */
export function totpAt(secret: string, now: number, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(now / 1000) + steps * 30 });
}

/** Registers an authenticator app for a signed-in user; answers the secret and recovery codes. */
export async function enrolTotp(t: TestApp, who: TestTenant, cookie: string) {
  const start = await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie);
  if (start.statusCode !== 200) throw new Error(`register-totp failed: ${start.body}`);
  const { secret } = start.json() as { secret: string };
  const verify = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
    code: await totpAt(secret, t.clock.now()),
    deliveryType: 'totp',
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  // The next code must come from a later time step (the replay guard).
  t.clock.advance(30_000);
  return { secret, recoveryCodes: verify.json().recoveryCodes as string[] };
}

/** The newest SMS or call text sent to a number, and the 6-digit code in it. */
export async function lastPhoneMessage(db: Kysely<Database>, recipient: string) {
  const row = await db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return undefined;
  const content = JSON.parse(row.payload) as { text: string; language?: string };
  const digits = content.text.match(/(\d)[ ,]+(\d)[ ,]+(\d)[ ,]+(\d)[ ,]+(\d)[ ,]+(\d)/);
  const code = content.text.match(/#(\d{6})/)?.[1] ?? digits?.slice(1).join('');
  return { row, content, code: code ?? '' };
}

/** Changes a tenant's settings (and drops the cached tenant and provider). */
export async function updateTenantSettings(
  t: TestApp,
  tenantCode: string,
  settings: Partial<TenantSettings>,
) {
  const row = await t.services.db
    .selectFrom('tenants')
    .select('settings')
    .where('code', '=', tenantCode)
    .executeTakeFirstOrThrow();
  const merged = { ...JSON.parse(row.settings), ...settings };
  await t.services.db
    .updateTable('tenants')
    .set({ settings: JSON.stringify(merged) })
    .where('code', '=', tenantCode)
    .execute();
  t.services.tenants.invalidate();
}

/**
 * Moves the test clock to just after the start of a fixed rate-limit window, so a test that
 * counts hits (with some clock advances between them) never straddles two windows.
 */
export function startOfWindow(t: TestApp, windowMs: number): void {
  const now = t.clock.now();
  t.clock.advance(windowMs - (now % windowMs) + 1000);
}
