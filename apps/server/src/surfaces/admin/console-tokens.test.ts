import { createHash, randomBytes } from 'node:crypto';
import { adminErrors, errorCodes, operatorTenantCode } from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { consoleClientId } from '../../features/operators/operator-tenant.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { listeningTestApp } from '../../test/oidc.ts';
import { passwordStep, registerTotp, totpCode } from '../../test/sign-in-flow.ts';
import { adminTokenTtlSeconds } from './admin-provider.ts';

const password = 'Operator-owner-77';
const email = 'owner@tokens.example';

/**
 * Issue 16, item 10: the console's public client got a 14-day refresh token that minted owner
 * admin tokens without a secret and without the operator tenant's daily MFA. Now no public
 * client of the operator tenant gets a refresh token, and no admin token outlives the
 * operator's MFA freshness (the operator tenant's trusted-device period, one day, from the
 * sign-in): its lifetime ends there, the admin API refuses it afterwards whatever its expiry,
 * a silent sign-in is refused, and a refresh through a confidential client fails. Over real
 * HTTP, the console's requests as it makes them, on SQLite and PostgreSQL.
 */
describe.each(engines)('admin tokens and the operators’ MFA freshness on %s', (engine) => {
  let t: TestApp;
  let origin: string;
  let totpSecret: string;
  const freshMs = DAY;
  const callback = () => `${origin}/console/callback`;

  beforeAll(async () => {
    const listening = await listeningTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    t = listening.t;
    origin = listening.origin('admin');
    const created = await runCliOn(t, 'operators', 'create-owner', '--email', email);
    expect(created.code).toBe(0);
    const link = new URL(created.out.trim());
    const activation = await loopbackFetch(`${origin}/api/user/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        token: link.searchParams.get('token'),
        password,
        secretQuestion: 'first-pet-name',
        secretAnswer: 'Rex',
      }),
    });
    expect(activation.status).toBe(200);
    await t.services.tenants.refresh();
    const browser = new Browser();
    await passwordStep(browser, origin, operatorTenantCode, email, password);
    totpSecret = (await registerTotp(browser, origin, t.clock.now())).secret;
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A new browser signed in with the password and the authenticator, as the console's operator. */
  async function signedInBrowser(): Promise<Browser> {
    // A TOTP code is accepted once: the next sign-in is in the next time step.
    t.clock.advance(31_000);
    const browser = new Browser();
    const identity = await passwordStep(browser, origin, operatorTenantCode, email, password);
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    await verifyTotp(browser);
    return browser;
  }

  async function verifyTotp(browser: Browser) {
    const verified = await browser.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { code: await totpCode(totpSecret, t.clock.now()), deliveryType: 'totp' },
    });
    expect(verified.status, 'the TOTP step').toBe(200);
  }

  /**
   * The authorization request of a client (the console's unless told), with code + PKCE;
   * answers where the browser ends up: the callback, or the portal's refusal of the session.
   */
  async function authorize(
    browser: Browser,
    params: Record<string, string> = {},
    client: { id: string; redirectUri: string } = { id: consoleClientId, redirectUri: callback() },
  ) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${origin}/oidc/auth`);
    url.search = new URLSearchParams({
      client_id: client.id,
      response_type: 'code',
      redirect_uri: client.redirectUri,
      scope: 'openid admin',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: randomBytes(16).toString('base64url'),
      ...params,
    }).toString();
    let location = (await browser.fetch(url.href)).headers.get('location') ?? '';
    for (let round = 0; round < 3 && location.startsWith('/login?iid='); round++) {
      const iid = new URL(location, origin).searchParams.get('iid');
      const authorized = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
      const answer = (await authorized.json()) as { location?: string; code?: string };
      if (authorized.status !== 200) return { iid, refused: answer.code, verifier, location: '' };
      location = (await browser.fetch(answer.location!)).headers.get('location') ?? '';
    }
    return { iid: null, refused: undefined, verifier, location };
  }

  async function redeem(
    location: string,
    verifier: string,
    client: { id: string; redirectUri: string; secret?: string } = {
      id: consoleClientId,
      redirectUri: callback(),
    },
  ) {
    const code = new URL(location).searchParams.get('code');
    expect(code, `a code at ${location}`).toBeTruthy();
    const response = await loopbackFetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(client.secret
          ? { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` }
          : {}),
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
        ...(client.secret ? {} : { client_id: client.id }),
      }).toString(),
    });
    expect(response.status, 'the code exchange').toBe(200);
    return (await response.json()) as { access_token: string; refresh_token?: string; expires_in: number };
  }

  async function adminStatus(token: string) {
    const response = await loopbackFetch(`${origin}/admin/api/v1/tenants`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { code?: string };
    return { status: response.status, code: body.code };
  }

  it('gives the console (a public client) no refresh token, also when offline access is asked for', async () => {
    // As an operator tenant made before this rule has it: the console may use the refresh grant.
    const stored = await t.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', consoleClientId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.metadata).grant_types).toEqual(['authorization_code']);
    await t.services.db
      .updateTable('oidc_clients')
      .set({
        metadata: JSON.stringify({
          ...JSON.parse(stored.metadata),
          grant_types: ['authorization_code', 'refresh_token'],
        }),
      })
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', consoleClientId)
      .execute();
    t.services.tenants.invalidate(operatorTenantCode);
    const browser = await signedInBrowser();
    const asks: Array<Record<string, string>> = [
      {},
      { scope: 'openid admin offline_access', prompt: 'consent' },
    ];
    let accessToken = '';
    for (const params of asks) {
      const { location, verifier } = await authorize(browser, params);
      expect(location.startsWith(`${callback()}?`), location).toBe(true);
      const tokens = await redeem(location, verifier);
      expect(tokens.refresh_token, JSON.stringify(params)).toBeUndefined();
      expect((await adminStatus(tokens.access_token)).status).toBe(200);
      accessToken = tokens.access_token;
    }
    // A refresh token the console got before this rule (made here as the provider made it then)
    // mints nothing more.
    const { provider } = await t.services.providers.get(
      (await t.services.tenants.byCode(operatorTenantCode))!,
    );
    const issued = await provider.AccessToken.find(accessToken);
    const client = await provider.Client.find(consoleClientId);
    const old = new provider.RefreshToken({
      client: client!,
      accountId: issued!.accountId,
      grantId: issued!.grantId!,
      scope: 'openid admin offline_access',
      authTime: Math.floor(t.clock.now() / 1000),
      gty: 'authorization_code',
    });
    const refreshed = await loopbackFetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: await old.save(),
        client_id: consoleClientId,
      }).toString(),
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it("refuses a confidential client's refresh once the operator's MFA freshness has passed", async () => {
    const tool = {
      id: 'ops-tool',
      secret: 'ops-tool-secret-0123456789',
      redirectUri: 'https://ops-tool.example/cb',
    };
    await t.services.db
      .insertInto('oidc_clients')
      .values({
        tenant_code: operatorTenantCode,
        client_id: tool.id,
        metadata: JSON.stringify({
          client_id: tool.id,
          client_secret: hashClientSecret(tool.secret),
          redirect_uris: [tool.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        }),
        created_at: Date.now(),
      })
      .execute();
    t.services.tenants.invalidate(operatorTenantCode);
    const browser = await signedInBrowser();
    const { location, verifier } = await authorize(
      browser,
      { scope: 'openid offline_access', prompt: 'consent' },
      tool,
    );
    expect(location.startsWith(`${tool.redirectUri}?`), location).toBe(true);
    const tokens = await redeem(location, verifier, tool);
    expect(tokens.refresh_token).toBeDefined();
    const refreshWith = async (refreshToken: string) => {
      const response = await loopbackFetch(`${origin}/oidc/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${tool.id}:${tool.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
      });
      return {
        status: response.status,
        ...((await response.json()) as { error?: string; refresh_token?: string }),
      };
    };
    const within = await refreshWith(tokens.refresh_token!);
    expect(within.status).toBe(200);
    t.clock.advance(freshMs);
    const past = await refreshWith(within.refresh_token!);
    expect(past).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('ends an admin token with the MFA freshness, refuses it afterwards whatever its expiry, and asks for the password and MFA again', async () => {
    const browser = await signedInBrowser();
    const first = await authorize(browser);
    const tokens = await redeem(first.location, first.verifier);
    expect(tokens.expires_in).toBeLessThanOrEqual(adminTokenTtlSeconds);
    expect((await adminStatus(tokens.access_token)).status).toBe(200);

    // Two minutes of freshness left: the console's silent sign-in gets a token for two minutes.
    t.clock.advance(freshMs - 120_000);
    const late = await authorize(browser, { prompt: 'none' });
    expect(late.location.startsWith(`${callback()}?`), late.location).toBe(true);
    const lateTokens = await redeem(late.location, late.verifier);
    expect(lateTokens.expires_in).toBeGreaterThan(0);
    expect(lateTokens.expires_in).toBeLessThanOrEqual(120);
    expect((await adminStatus(lateTokens.access_token)).status).toBe(200);

    // Thirty seconds left: no sign-in is handed on for so short a token, the held one still works.
    t.clock.advance(90_000);
    const short = await authorize(browser, { prompt: 'none' });
    expect(new URL(short.location).searchParams.get('error')).toBe('login_required');
    expect((await adminStatus(lateTokens.access_token)).status).toBe(200);

    // Past the freshness: the token is refused although the provider still holds it unexpired.
    t.clock.advance(60_000);
    const { provider } = await t.services.providers.get(
      (await t.services.tenants.byCode(operatorTenantCode))!,
    );
    const stored = await provider.AccessToken.find(tokens.access_token);
    expect(stored?.isExpired).toBe(false);
    expect(await adminStatus(tokens.access_token)).toEqual({
      status: 401,
      code: adminErrors.unauthenticated,
    });
    expect((await adminStatus(lateTokens.access_token)).status).toBe(401);

    // The silent sign-in is refused; the interactive one asks for the password again.
    const silent = await authorize(browser, { prompt: 'none' });
    expect(new URL(silent.location).searchParams.get('error')).toBe('login_required');
    // The provider dates its requests by the system clock, the portal compares them with the
    // session's (the test clock): from here both read the same moved time, as in production.
    const shift = t.clock.offset;
    const realNow = Date.now.bind(Date);
    t.clock.offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
    const again = await authorize(browser);
    expect(again.refused).toBe(errorCodes.reauthenticationRequired);
    t.clock.advance(31_000);
    const identity = await passwordStep(browser, origin, operatorTenantCode, email, password, {
      iid: again.iid!,
    });
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    await verifyTotp(browser);
    const renewed = await authorize(browser);
    const renewedTokens = await redeem(renewed.location, renewed.verifier);
    expect((await adminStatus(renewedTokens.access_token)).status).toBe(200);
  });
});
