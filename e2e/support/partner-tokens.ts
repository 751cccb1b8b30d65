import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import type { PartnerConfig, PartnerJwks } from '@keycard/contract';
import { savePartner } from '../../apps/server/src/features/partners/partner.repository.ts';
import type { Keycard } from './keycard.ts';

/**
 * A partner application as browser tests need one: its own ES256 key, an inline JWKS
 * registered on a tenant, and signed (or deliberately broken) partner tokens.
 */
export interface TestPartner {
  code: string;
  tenantCode: string;
  issuer: string;
  redirectUri: string;
  kid: string;
  privateKey: KeyObject;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function createTestPartner(options: {
  code: string;
  tenantCode: string;
  origin?: string;
}): TestPartner {
  const origin = options.origin ?? 'https://partner.example';
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    code: options.code,
    tenantCode: options.tenantCode,
    issuer: origin,
    redirectUri: `${origin}/handoff`,
    kid: `${options.code}-key-1`,
    privateKey,
  };
}

export function partnerJwks(partner: TestPartner): PartnerJwks {
  const publicJwk = partner.privateKey.export({ format: 'jwk' });
  const { d: _private, ...key } = publicJwk;
  return { keys: [{ ...key, kty: 'EC', kid: partner.kid, alg: 'ES256', use: 'sig' }] };
}

/** Registers the partner on its tenant (the registry's own save, as `keycard partners add` does). */
export async function registerPartner(
  keycard: Keycard,
  partner: TestPartner,
  overrides: Partial<PartnerConfig> = {},
): Promise<void> {
  await savePartner(
    keycard.services.db,
    partner.tenantCode,
    {
      code: partner.code,
      displayName: `Partner ${partner.code}`,
      issuer: partner.issuer,
      jwksUri: null,
      jwks: partnerJwks(partner),
      algorithms: ['ES256'],
      linking: 'link-verified-email',
      redirectUris: [partner.redirectUri],
      helpUrlTemplate: `${partner.issuer}/help?email={email}&partner={partnerCode}`,
      skipMfa: false,
      ...overrides,
    },
    keycard.clock.now(),
  );
}

export interface PartnerTokenOptions {
  /** The tenant's issuer URL, `<tenant origin>/oidc`. */
  audience: string;
  subject: string;
  email?: string;
  /** Seconds since the epoch; defaults to the test Keycard's clock. */
  issuedAt: number;
  lifetimeSeconds?: number;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
}

/** A partner token (RFC 7519 JWT, ES256) as the partner's app would sign it. */
export function signPartnerToken(partner: TestPartner, options: PartnerTokenOptions): string {
  const header = { alg: 'ES256', typ: 'JWT', kid: partner.kid, ...options.header };
  const payload = {
    iss: partner.issuer,
    aud: options.audience,
    sub: options.subject,
    iat: options.issuedAt,
    exp: options.issuedAt + (options.lifetimeSeconds ?? 120),
    jti: randomUUID(),
    ...(options.email ? { email: options.email, email_verified: true } : {}),
    ...options.claims,
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  // JWS ES256 is the raw r‖s signature (RFC 7518 §3.4), not DER.
  const signature = sign('sha256', Buffer.from(input), {
    key: partner.privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${base64url(signature)}`;
}

/** The same claims under `alg: none` and no signature (RFC 7519 §6). */
export function unsignedPartnerToken(partner: TestPartner, options: PartnerTokenOptions): string {
  const [, payload] = signPartnerToken(partner, options).split('.');
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`;
}

/**
 * A valid token broken after signing: its claims changed (another subject) or its
 * signature altered (one byte of r flipped).
 */
export function tamperedPartnerToken(
  partner: TestPartner,
  options: PartnerTokenOptions,
  part: 'claims' | 'signature',
): string {
  const [header, payload = '', signature = ''] = signPartnerToken(partner, options).split('.');
  if (part === 'claims') {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    claims.sub = 'someone-else';
    return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
  }
  const bytes = Buffer.from(signature, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return `${header}.${payload}.${base64url(bytes)}`;
}

/** The portal address a partner sends the browser to. */
export function partnerSsoLink(
  origin: string,
  partnerCode: string,
  token: string,
  redirectUri?: string,
): string {
  const query = redirectUri ? `?${new URLSearchParams({ redirectUri })}` : '';
  return `${origin}/partners/${encodeURIComponent(partnerCode)}/sso/${token}${query}`;
}
