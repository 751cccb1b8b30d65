import {
  type PasskeyAssertion,
  type PasskeyTransport,
  passkeyErrors,
  passkeyTransports,
} from '@keycard/contract';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { LimitRule, RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import type { MfaMethod } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { type CeremonyBinding, recordCredentialUse } from './passkey.repository.ts';
import type { PasskeyRow } from './passkey.schema.ts';

/** What every passkey ceremony works with. */
export interface PasskeyDeps {
  db: Kysely<Database>;
  limiter: RateLimiter;
  config: Config;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** Delivers the security mail a change enqueued, after its commit. */
  outbox: { kick(): Promise<unknown> };
}

/**
 * The relying party of a request: the tenant, the host the request came to (its RP ID: a
 * passkey made here signs in here only), that host's public origin (what clientDataJSON must
 * name), the browser's ceremony cookie and the client address.
 */
export interface PasskeyHost {
  tenant: TenantContext;
  rpId: string;
  origin: string;
  browserToken: string;
  ip: string;
  /** The browser's User-Agent header, for the account's recent activity and security mail. */
  userAgent?: string | undefined;
}

/**
 * Passkey sign-in requests per client address and tenant: twice the password step's rate
 * (LOGIN_IP_LIMIT_PER_MINUTE), since each sign-in asks for options and then answers them.
 * Guessing is hopeless against a signature; the limit keeps floods from costing verifications.
 */
export function addressCeremonyRule(config: Config): LimitRule {
  return { limit: 2 * config.login.ipLimitPerMinute, windowMs: 60_000, lockMs: 0 };
}

/** Ceremonies of one signed-in account: generous for a person, a wall for a script. */
export const accountCeremonyRule: LimitRule = { limit: 60, windowMs: 60_000, lockMs: 0 };

/** At most this many passkeys per account. */
export const passkeyLimit = 20;

/** The `passkeys: 'off'` setting refuses every passkey call. */
export function assertOffered(tenant: TenantContext): void {
  if (tenant.settings.passkeys === 'off') throw new AppError(passkeyErrors.notOffered);
}

export async function reserveCeremony(
  limiter: RateLimiter,
  key: string,
  rule: LimitRule,
  now: number,
): Promise<void> {
  const reservation = await limiter.reserve(key, rule, now);
  if (!reservation.allowed) {
    throw new AppError(passkeyErrors.rateLimited, { fields: retryAfter(reservation.retryAfterMs) });
  }
}

/** The ceremony's binding on this host for a purpose (and the session, when signed in). */
export function bindingOf(
  host: PasskeyHost,
  purpose: CeremonyBinding['purpose'],
  signedIn: { sessionId: string; userId: string } | null,
): CeremonyBinding {
  return {
    tenantCode: host.tenant.code,
    purpose,
    rpId: host.rpId,
    browserToken: host.browserToken,
    sessionId: signedIn?.sessionId ?? null,
    userId: signedIn?.userId ?? null,
  };
}

/** The challenge a response's clientDataJSON carries, or null when it carries none. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    if (typeof data !== 'object' || data === null || !('challenge' in data)) return null;
    return typeof data.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

export function knownTransports(values: readonly string[] | undefined): PasskeyTransport[] {
  return (values ?? []).filter((value): value is PasskeyTransport =>
    (passkeyTransports as readonly string[]).includes(value),
  );
}

export function storedTransports(row: Pick<PasskeyRow, 'transports'>): PasskeyTransport[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? knownTransports(parsed.filter((v) => typeof v === 'string')) : [];
  } catch {
    return [];
  }
}

/** How a passkey counts for MFA and amr: synced (backup eligible) swk, else device-bound hwk. */
export function methodOf(row: Pick<PasskeyRow, 'backup_eligible'>): MfaMethod {
  return Number(row.backup_eligible) === 1 ? 'passkey-swk' : 'passkey-hwk';
}

/**
 * Why an assertion was refused: logged and audited, never told to the caller — except that a
 * sign-in's unknown credential answers a code of its own (see signInWithPasskey).
 */
export type RefusalReason =
  | 'unknown_credential'
  | 'user_handle_mismatch'
  | 'account_inactive'
  | 'signature_or_origin'
  | 'counter_regressed'
  | 'concurrent_use'
  | 'other_account'
  | 'user_not_verified';

/**
 * Refuses an assertion with the one code a forger learns nothing from, after logging the
 * reason and, when the passkey is one of ours, auditing it against its account. A counter
 * that went backwards is the WebAuthn L3 §6.1.1 sign of a cloned authenticator.
 */
export async function refuse(
  deps: PasskeyDeps,
  host: PasskeyHost,
  reason: RefusalReason,
  row: Pick<PasskeyRow, 'id' | 'user_id'> | undefined,
  now: number,
  code:
    | typeof passkeyErrors.verificationFailed
    | typeof passkeyErrors.unknownCredential = passkeyErrors.verificationFailed,
): Promise<never> {
  const fields = { tenant: host.tenant.code, rpId: host.rpId, reason, passkey: row?.id, user: row?.user_id };
  deps.log.warn(
    fields,
    reason === 'counter_regressed' ? 'passkey refused: possible cloned authenticator' : 'passkey refused',
  );
  if (row) {
    await recordAudit(
      deps.db,
      systemActor,
      {
        tenant: host.tenant.code,
        action: 'passkey.refused',
        target: { kind: 'user', id: row.user_id },
        after: { passkey: row.id, rpId: host.rpId, reason },
      },
      now,
    ).catch((error: unknown) =>
      deps.log.warn({ ...fields, err: error instanceof Error ? error.message : undefined }, 'audit failed'),
    );
  }
  throw new AppError(code);
}

/**
 * Verifies an assertion against a stored passkey (signature, challenge, origin, RP ID hash,
 * user presence, and user verification when required), then the counter: when both the stored
 * and the new counter are non-zero and the new one is not higher, the authenticator may have
 * been cloned and the assertion is refused. The use is recorded by a guarded UPDATE, so
 * concurrent assertions carrying the same counter cannot both pass.
 */
export async function verifyAssertion(
  deps: PasskeyDeps,
  host: PasskeyHost,
  row: PasskeyRow,
  input: { credential: PasskeyAssertion; challenge: string; requireUserVerification: boolean },
  now: number,
): Promise<{ userVerified: boolean }> {
  const { credential } = input;
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: { ...credential, clientExtensionResults: credential.clientExtensionResults ?? {} },
      expectedChallenge: input.challenge,
      expectedOrigin: host.origin,
      expectedRPID: host.rpId,
      expectedType: 'webauthn.get',
      // The counter is checked below, by our rule, so the library is given none to compare.
      credential: {
        id: row.credential_id,
        publicKey: isoBase64URL.toBuffer(row.public_key),
        counter: 0,
        transports: storedTransports(row),
      },
      requireUserVerification: input.requireUserVerification,
    });
  } catch {
    return refuse(deps, host, 'signature_or_origin', row, now);
  }
  if (!verified.verified) return refuse(deps, host, 'signature_or_origin', row, now);
  const stored = Number(row.counter);
  const next = verified.authenticationInfo.newCounter;
  if (stored > 0 && next > 0 && next <= stored) return refuse(deps, host, 'counter_regressed', row, now);
  const recorded = await recordCredentialUse(
    deps.db,
    row,
    { counter: next, backedUp: verified.authenticationInfo.credentialBackedUp },
    now,
  );
  if (!recorded) return refuse(deps, host, 'concurrent_use', row, now);
  return { userVerified: verified.authenticationInfo.userVerified };
}
