import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiPaths, type PartnerConfig, tokenExchange } from '@keycard/contract';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { savePartner } from '../features/partners/partner.repository.ts';
import { upsertTenant } from '../features/tenants/tenant.admin.ts';
import type { ClientMetadata } from '../features/tenants/tenant.types.ts';
import { demoTenants } from '../surfaces/seed/demo.ts';
import type { TestApp } from './helper.ts';
import type { Browser, Fetcher } from './http-client.ts';
import type { Cluster } from './instances.ts';

/**
 * Shared steps of the partner sign-in tests: a partner's signing keys, its tokens, its JWKS
 * served over HTTP, its registration, and the partner app's OIDC client and code redemption.
 */

/**
 * Every test request comes from 127.0.0.1, so the per-address rate of partner sign-ins (the
 * login's, 30 a minute) would refuse the attack tests' bursts; it has a test of its own
 * (hardening.api.test.ts).
 */
export const manyRequests = { env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000' } };

/** A partner app's confidential client that may only redeem hand-off codes (RFC 8693). */
export interface ExchangeClient {
  id: string;
  secret: string;
  redirectUri: string;
}

export const partnerApp: ExchangeClient = {
  id: 'test-partner-app',
  secret: 'test-partner-app-secret',
  redirectUri: 'http://localhost:3002/handoff',
};

export function exchangeClientMetadata(client: ExchangeClient): ClientMetadata {
  return {
    client_id: client.id,
    client_secret: client.secret,
    redirect_uris: [client.redirectUri],
    grant_types: [tokenExchange.grantType],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

/** Registers OIDC clients on a demo tenant and makes every instance of the cluster see them now. */
export async function addClients(
  target: TestApp | Cluster,
  tenantCode: string,
  clients: ClientMetadata[],
): Promise<void> {
  const definition = demoTenants.find((tenant) => tenant.code === tenantCode);
  if (!definition) throw new Error(`no demo tenant ${tenantCode}`);
  const t = 't' in target ? target.t : target;
  const stored = await t.services.db
    .selectFrom('tenants')
    .select('settings')
    .where('code', '=', tenantCode)
    .executeTakeFirstOrThrow();
  await upsertTenant(t.services.db, { ...definition, settings: JSON.parse(stored.settings), clients });
  const instances = 'instances' in target ? target.instances : [{ services: t.services }];
  for (const instance of instances) instance.services.tenants.invalidate(tenantCode);
}

/** POST /oidc/token with the token-exchange grant, as the partner app's back end. */
export function exchangeHandoff(
  fetcher: Fetcher,
  origin: string,
  code: string,
  client: Pick<ExchangeClient, 'id' | 'secret'> = partnerApp,
  extra: Record<string, string> = {},
): Promise<Response> {
  const credentials = Buffer.from(`${client.id}:${client.secret}`).toString('base64');
  return fetcher(`${origin}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: tokenExchange.grantType,
      subject_token: code,
      subject_token_type: tokenExchange.handoffCodeType,
      ...extra,
    }).toString(),
  });
}

/** A partner's signing key pair and its public JWK (with a kid). */
export interface PartnerKey {
  kid: string;
  alg: 'ES256' | 'RS256' | 'EdDSA';
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  publicJwk: JWK;
}

export async function partnerKey(kid: string, alg: PartnerKey['alg'] = 'ES256'): Promise<PartnerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk };
}

let jtiCounter = 0;

/**
 * A partner token as a partner app signs it: `claims` override the defaults (a fresh jti,
 * iat now, exp in two minutes), `header` overrides the protected header.
 */
export async function signPartnerToken(
  key: PartnerKey,
  claims: JWTPayload & Record<string, unknown> & { iss: string; aud: string; sub: string },
  options: { nowSeconds?: number; header?: Record<string, unknown> } = {},
): Promise<string> {
  const iat = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  jtiCounter += 1;
  const payload: JWTPayload = {
    iat,
    exp: iat + 120,
    jti: `jti-${process.pid}-${Date.now()}-${jtiCounter}`,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...options.header })
    .sign(key.privateKey);
}

/** A partner's JWKS endpoint: the keys it publishes can change while the test runs. */
export interface JwksServer {
  url: string;
  keys: JWK[];
  /** Requests the endpoint answered. */
  hits: number;
  /** When false, the endpoint answers 503 (the partner's outage). */
  up: boolean;
  close(): Promise<void>;
}

export async function startJwksServer(keys: JWK[]): Promise<JwksServer> {
  const state: { keys: JWK[]; hits: number; up: boolean } = { keys, hits: 0, up: true };
  const server: Server = createServer((_request, response) => {
    state.hits += 1;
    if (!state.up) {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as JwksServer;
}

/** A partner's registration with test defaults; `overrides` change any field. */
export function partnerConfig(overrides: Partial<PartnerConfig> & { code: string }): PartnerConfig {
  return {
    displayName: `Partner ${overrides.code}`,
    issuer: `https://${overrides.code}.partner.test`,
    jwksUri: null,
    jwks: null,
    algorithms: ['ES256', 'RS256', 'EdDSA'],
    linking: 'link-verified-email',
    redirectUris: [partnerApp.redirectUri],
    helpUrlTemplate: null,
    skipMfa: false,
    ...overrides,
  };
}

export async function registerPartner(
  t: TestApp,
  tenantCode: string,
  overrides: Partial<PartnerConfig> & { code: string },
): Promise<PartnerConfig> {
  const config = partnerConfig(overrides);
  await savePartner(t.services.db, tenantCode, config, t.clock.now());
  return config;
}

/** The partner subject's link to an account, or undefined. */
export function partnerLinkOf(t: TestApp, tenantCode: string, partnerCode: string, subject: string) {
  return t.services.db
    .selectFrom('partner_identities')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** An API answer: status, JSON body, and whether it set a session cookie. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  setsSession: boolean;
}

async function answerOf(response: Response): Promise<Answer> {
  const setsSession = response.headers
    .getSetCookie()
    .some((line) => /^AUTH_X_TOKEN=[^;]+/.test(line) && !/expires=Thu, 01 Jan 1970/i.test(line));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, setsSession };
}

/** POST /api/partners/{partnerCode}/sso from the portal's partner page. */
export async function partnerSso(browser: Browser, origin: string, partnerCode: string, token: string) {
  return answerOf(
    await browser.fetch(`${origin}${apiPaths.partners.sso(partnerCode)}`, {
      method: 'POST',
      body: { token },
    }),
  );
}

/** POST /api/partners/{partnerCode}/generate-token from /authenticated, step 4. */
export async function generateHandoff(
  browser: Browser,
  origin: string,
  partnerCode: string,
  body: { token: string; redirectUri?: string },
) {
  return answerOf(
    await browser.fetch(`${origin}${apiPaths.partners.generateToken(partnerCode)}`, { method: 'POST', body }),
  );
}
