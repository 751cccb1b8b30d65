import { createHash } from 'node:crypto';
import { deviceJwtTypes, deviceProofSkewSeconds } from '@keycard/contract';
import {
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  type ProtectedHeaderParameters,
} from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * Device proofs (docs/mobile-mfa.md): compact JWTs signed by the device's P-256 key. Only
 * ES256 is accepted (an algorithm allow-list: no 'none', no HMAC with a public key as secret),
 * the `typ` must name the proof's purpose (an answer cannot pass as a login), and every proof
 * is bound to one endpoint (aud), short-lived (exp − iat) and single use (jti).
 */

export type ProofKind = keyof typeof deviceJwtTypes;

/** A proof is a few hundred bytes; anything far larger is refused before any parsing. */
const maxProofLength = 8 * 1024;

export class ProofRejected extends Error {}

/** The unverified header, or null when the text is not a JWT at all. */
export function proofHeader(proof: string): ProtectedHeaderParameters | null {
  if (proof.length > maxProofLength) return null;
  try {
    return decodeProtectedHeader(proof);
  } catch {
    return null;
  }
}

/** The unverified claims: only to find which enrolment a failing proof was meant for. */
export function unverifiedClaims(proof: string): JWTPayload | null {
  if (proof.length > maxProofLength) return null;
  try {
    return decodeJwt(proof);
  } catch {
    return null;
  }
}

/** A public P-256 key as a JWK with exactly the public members; null for anything else. */
export function publicP256Jwk(value: unknown): JWK | null {
  if (!value || typeof value !== 'object') return null;
  const jwk = value as Record<string, unknown>;
  // A private member in the header means the app leaked its key: refuse rather than store it.
  if ('d' in jwk) return null;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') return null;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return null;
  if (!/^[\w-]{43}$/.test(jwk.x) || !/^[\w-]{43}$/.test(jwk.y)) return null;
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/**
 * Verifies a device proof with the given public key: signature, alg, typ, aud, times (with
 * 30 s of clock skew) and the lifetime limit. Answers the claims, or throws ProofRejected.
 */
export async function verifyDeviceProof(
  proof: string,
  jwk: JWK,
  options: { kind: ProofKind; audience: string; now: number; maxLifetimeSeconds: number },
): Promise<JWTPayload> {
  if (proof.length > maxProofLength) throw new ProofRejected('proof too long');
  let payload: JWTPayload;
  try {
    const key = await importJWK(jwk, 'ES256');
    ({ payload } = await jwtVerify(proof, key, {
      algorithms: ['ES256'],
      typ: deviceJwtTypes[options.kind],
      audience: options.audience,
      clockTolerance: deviceProofSkewSeconds,
      currentDate: new Date(options.now),
      requiredClaims: ['iat', 'exp', 'jti', 'aud'],
    }));
  } catch (error) {
    throw new ProofRejected('proof does not verify', { cause: error });
  }
  const { iat, exp, jti } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw new ProofRejected('times missing');
  if (exp - iat > options.maxLifetimeSeconds || exp <= iat) throw new ProofRejected('lifetime too long');
  // Issued in the future (beyond the skew): a clock far off, or a proof made ahead to be used later.
  if (iat * 1000 > options.now + deviceProofSkewSeconds * 1000)
    throw new ProofRejected('issued in the future');
  if (typeof jti !== 'string' || jti.length < 8 || jti.length > 128) throw new ProofRejected('bad jti');
  return payload;
}

/**
 * Single use of a proof: its jti (scoped to the key that signed it) is recorded until the proof
 * expires anyway; a second use finds it there. One INSERT … ON CONFLICT DO NOTHING decides,
 * so concurrent replays cannot both pass.
 */
export async function consumeJti(
  db: Kysely<Database>,
  input: { kind: ProofKind; keyId: string; jti: string; exp: number },
  now: number,
): Promise<boolean> {
  const key = createHash('sha256').update(`${input.kind}\n${input.keyId}\n${input.jti}`).digest('base64url');
  const expiresAt = (input.exp + deviceProofSkewSeconds) * 1000;
  const result = await db
    .insertInto('mobile_used_jtis')
    .values({ key, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  if (Math.random() < 0.05) {
    await db.deleteFrom('mobile_used_jtis').where('expires_at', '<', now).execute();
  }
  // PostgreSQL reports no row for ON CONFLICT DO NOTHING; SQLite reports 0 changes.
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
