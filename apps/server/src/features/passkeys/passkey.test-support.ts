import {
  apiPaths,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
  type PasskeySummary,
  type UserIdentity,
} from '@keycard/contract';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper.ts';
import type { Browser } from '../../test/http-client.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';
import { type Bend, SoftwareAuthenticator } from './software-authenticator.test-support.ts';

/** The passkey calls as the portal makes them, for the passkey tests. */

export const testPassword = 'Passkey-tests-1!';

export async function post(browser: Browser, origin: string, path: string, body: unknown = {}) {
  const response = await browser.fetch(`${origin}${path}`, { method: 'POST', body });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A new active account of a demo tenant with a known password. */
export async function newAccount(t: TestApp, tenantCode = 'grand-hotel', domain = 'grand-hotel.test') {
  const email = uniqueEmail('passkey', domain);
  const user = await activeUser(t, email, testPassword, { tenantCode });
  return { email, id: user.id };
}

/** The password step and the code exchange in a browser; answers the identity. */
export async function passwordSignIn(
  browser: Browser,
  origin: string,
  tenant: string,
  email: string,
  options: { iid?: string } = {},
): Promise<UserIdentity> {
  const login = await post(browser, origin, apiPaths.login, {
    email,
    password: testPassword,
    state: 'state-0123456789abcdef',
    ...options,
  });
  expect(login.status, 'the password step').toBe(200);
  const authenticate = await post(browser, origin, apiPaths.authenticate, {
    code: login.json.code,
    tenantCode: tenant,
  });
  expect(authenticate.status, 'the code exchange').toBe(200);
  return authenticate.json as unknown as UserIdentity;
}

export async function registrationOptions(browser: Browser, origin: string): Promise<PasskeyCreationOptions> {
  const answer = await post(browser, origin, apiPaths.passkeys.registrationOptions);
  expect(answer.status, `registration options: ${JSON.stringify(answer.json)}`).toBe(200);
  return answer.json.options as PasskeyCreationOptions;
}

/** Creates a passkey on the signed-in account with the authenticator. */
export async function createPasskey(
  browser: Browser,
  origin: string,
  authenticator: SoftwareAuthenticator,
  name?: string,
): Promise<PasskeySummary> {
  const options = await registrationOptions(browser, origin);
  const answer = await post(browser, origin, apiPaths.passkeys.register, {
    credential: authenticator.create(options),
    ...(name ? { name } : {}),
  });
  expect(answer.status, `register: ${JSON.stringify(answer.json)}`).toBe(201);
  return answer.json.passkey as PasskeySummary;
}

export async function signInOptions(browser: Browser, origin: string): Promise<PasskeyRequestOptions> {
  const answer = await post(browser, origin, apiPaths.passkeys.signInOptions);
  expect(answer.status, `sign-in options: ${JSON.stringify(answer.json)}`).toBe(200);
  return answer.json.options as PasskeyRequestOptions;
}

export function signInWith(browser: Browser, origin: string, credential: PasskeyAssertion, iid?: string) {
  return post(browser, origin, apiPaths.passkeys.signIn, {
    credential,
    state: 'state-0123456789abcdef',
    ...(iid ? { iid } : {}),
  });
}

/** A whole passkey sign-in: options, the assertion, the code, /api/authenticate. */
export async function passkeySignIn(
  browser: Browser,
  origin: string,
  tenant: string,
  authenticator: SoftwareAuthenticator,
  options: { iid?: string; bend?: Bend } = {},
): Promise<UserIdentity> {
  const request = await signInOptions(browser, origin);
  const answer = await signInWith(browser, origin, authenticator.get(request, options.bend), options.iid);
  expect(answer.status, `passkey sign-in: ${JSON.stringify(answer.json)}`).toBe(200);
  expect(answer.json.state).toBe('state-0123456789abcdef');
  const authenticate = await post(browser, origin, apiPaths.authenticate, {
    code: answer.json.code,
    tenantCode: tenant,
  });
  expect(authenticate.status, 'the code exchange').toBe(200);
  return authenticate.json as unknown as UserIdentity;
}

/** The verify ceremony (MFA, step-up, recent sign-in) in a signed-in browser. */
export async function passkeyVerify(
  browser: Browser,
  origin: string,
  authenticator: SoftwareAuthenticator,
  bend: Bend = {},
) {
  const options = await post(browser, origin, apiPaths.passkeys.verifyOptions);
  expect(options.status, `verify options: ${JSON.stringify(options.json)}`).toBe(200);
  const request = options.json.options as PasskeyRequestOptions;
  return post(browser, origin, apiPaths.passkeys.verify, { credential: authenticator.get(request, bend) });
}

/** An account with one passkey made after a password sign-in, and the browser it used. */
export async function accountWithPasskey(
  t: TestApp,
  browser: Browser,
  origin: string,
  authenticator: SoftwareAuthenticator,
  tenantCode = 'grand-hotel',
  domain = 'grand-hotel.test',
) {
  const account = await newAccount(t, tenantCode, domain);
  await passwordSignIn(browser, origin, tenantCode, account.email);
  const passkey = await createPasskey(browser, origin, authenticator);
  return { ...account, passkey };
}

/**
 * Stored passkeys no authenticator holds, written straight to the table: an account brought up
 * to a count (the limit of 20) without a ceremony for each. Their credential ids are
 * `<prefix>-<user id>-<i>`.
 */
export async function insertFillerPasskeys(
  t: TestApp,
  userId: string,
  options: { count: number; prefix: string; tenantCode?: string; rpId?: string },
): Promise<void> {
  const now = t.clock.now();
  await t.services.db
    .insertInto('passkey_credentials')
    .values(
      Array.from({ length: options.count }, (_, i) => ({
        id: `${options.prefix}-${userId.slice(0, 8)}-${i}`,
        tenant_code: options.tenantCode ?? 'grand-hotel',
        user_id: userId,
        credential_id: `${options.prefix}-${userId}-${i}`,
        public_key: 'AA',
        counter: 0,
        transports: '[]',
        rp_id: options.rpId ?? 'grand-hotel.localhost',
        aaguid: '00000000-0000-0000-0000-000000000000',
        backup_eligible: 0,
        backed_up: 0,
        name: `Filler ${i}`,
        created_at: now,
        last_used_at: null,
      })),
    )
    .execute();
}

export { type Bend, SoftwareAuthenticator };
