import {
  type PartnerTokenClaims,
  partnerErrors,
  partnerTokenClaimsSchema,
  partnerTokenClockToleranceSeconds,
  partnerTokenMaxLifetimeSeconds,
} from '@keycard/contract';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type JWTVerifyGetKey,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import { outboundFetch } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Partner } from './partner.repository.ts';

/** How long a fetched JWKS is trusted, and how soon an unknown kid may fetch it again. */
export interface PartnerKeyCacheOptions {
  /**
   * A key the partner removed keeps verifying until the cached set is this old (and is
   * fetched again). Short, so a withdrawn key stops working within a minute.
   */
  cacheMaxAgeMs: number;
  /**
   * A token with a kid not in the cached set fetches the set again (a new key works without a
   * restart), at most once per this period on each instance, so tokens with made-up kids cannot
   * make us hammer the partner; short, so a partner that signs with a key right after
   * publishing it waits at most this long.
   */
  cooldownMs: number;
  /** A JWKS request taking longer than this counts as the partner's keys being unavailable. */
  timeoutMs: number;
  /** Whether a key set may be at a private address (ALLOW_PRIVATE_OUTBOUND; security/outbound.ts). */
  allowPrivate: boolean;
}

export const defaultPartnerKeyCache: PartnerKeyCacheOptions = {
  cacheMaxAgeMs: 60_000,
  cooldownMs: 1_000,
  timeoutMs: 5_000,
  allowPrivate: false,
};

/** Remote key sets cached at once; more are dropped (partners are few, URLs are operators'). */
const maxCachedKeySets = 1000;

/** The partner's JWKS URL could not be read: the partner's outage, not a bad token. */
class KeysUnavailable extends Error {}

/**
 * The keys of every partner, per JWKS URL: fetched on first use and cached with rotation
 * (jose's createRemoteJWKSet), or the partner's inline JWKS. One instance per process; a cache
 * that may be lost (every instance fetches for itself).
 */
export class PartnerKeys {
  readonly #options: PartnerKeyCacheOptions;
  readonly #remote = new Map<string, JWTVerifyGetKey>();

  constructor(options: Partial<PartnerKeyCacheOptions> = {}) {
    this.#options = { ...defaultPartnerKeyCache, ...options };
  }

  keysOf(partner: Pick<Partner, 'jwks' | 'jwksUri'>): JWTVerifyGetKey {
    if (partner.jwks) return createLocalJWKSet(partner.jwks as Parameters<typeof createLocalJWKSet>[0]);
    const url = partner.jwksUri;
    if (!url) throw new KeysUnavailable('the partner has no keys');
    let remote = this.#remote.get(url);
    if (!remote) {
      if (this.#remote.size >= maxCachedKeySets) this.#remote.clear();
      const outbound = { allowPrivate: this.#options.allowPrivate, maxBytes: 256 * 1024 };
      remote = createRemoteJWKSet(new URL(url), {
        cacheMaxAge: this.#options.cacheMaxAgeMs,
        cooldownDuration: this.#options.cooldownMs,
        timeoutDuration: this.#options.timeoutMs,
        // Fetched by Keycard's servers from an owner-set address: never inside the network.
        [customFetch]: (target, init) =>
          outboundFetch(
            target,
            { method: init.method, headers: Object.fromEntries(init.headers), signal: init.signal },
            outbound,
          ),
      });
      this.#remote.set(url, remote);
    }
    const fetched = remote;
    // Tells a failed fetch (503 keys_unavailable) from a token no published key matches (401).
    return async (header, token) => {
      try {
        return await fetched(header, token);
      } catch (error) {
        if (
          error instanceof joseErrors.JWKSNoMatchingKey ||
          error instanceof joseErrors.JWKSMultipleMatchingKeys ||
          error instanceof joseErrors.JOSENotSupported ||
          error instanceof joseErrors.JOSEAlgNotAllowed
        ) {
          throw error;
        }
        throw new KeysUnavailable('the JWKS could not be fetched', { cause: error });
      }
    };
  }
}

/** Why a token was refused; logged, never answered (an attacker learns nothing from it). */
export type PartnerTokenLog = (reason: string, error?: unknown) => void;

/**
 * Verifies a partner token (issue 8, step 2): signature by a key the partner publishes, with
 * an algorithm the partner is registered for (never `none` or HS*: the contract allows only
 * asymmetric ones, and jose refuses anything off the list); issuer the partner's; audience
 * exactly this tenant's issuer URL, nothing else (a token for another tenant or relying party
 * is not ours to accept, RFC 7523 §3); sub, iat, exp and jti present; a lifetime of at most five
 * minutes; 30 seconds of clock tolerance. Any failure is partner.token_invalid; keys that cannot
 * be fetched are partner.keys_unavailable.
 */
export async function verifyPartnerToken(
  keys: PartnerKeys,
  partner: Partner,
  input: { token: string; audience: string; now: number },
  log: PartnerTokenLog,
): Promise<PartnerTokenClaims> {
  const invalid = (reason: string, error?: unknown) => {
    log(reason, error);
    return new AppError(partnerErrors.tokenInvalid);
  };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(input.token, keys.keysOf(partner), {
      algorithms: partner.algorithms,
      issuer: partner.issuer,
      audience: input.audience,
      clockTolerance: partnerTokenClockToleranceSeconds,
      maxTokenAge: partnerTokenMaxLifetimeSeconds,
      requiredClaims: ['iss', 'aud', 'sub', 'iat', 'exp', 'jti'],
      currentDate: new Date(input.now),
    }));
  } catch (error) {
    if (error instanceof KeysUnavailable) {
      log('the partner keys are unavailable', error);
      throw new AppError(partnerErrors.keysUnavailable);
    }
    throw invalid('the token does not verify', error);
  }
  // jose accepts an audience list that contains ours; a partner token names us alone.
  const { aud } = payload;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (audiences.length !== 1 || audiences[0] !== input.audience)
    throw invalid('aud names more than this tenant');
  const claims = partnerTokenClaimsSchema.safeParse(payload);
  if (!claims.success) throw invalid('claims off contract', claims.error);
  if (claims.data.exp - claims.data.iat > partnerTokenMaxLifetimeSeconds) {
    throw invalid('lifetime longer than allowed');
  }
  return claims.data;
}
