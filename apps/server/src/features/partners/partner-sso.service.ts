import {
  errorCodes,
  type GenerateTokenResponse,
  type PartnerTokenClaims,
  partnerAuditActions,
  partnerErrors,
  partnerTokenClockToleranceSeconds,
} from '@keycard/contract';
import type { Kysely, Transaction } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';
import { AppError, assertThat, retryAfter } from '../../platform/shared/errors.ts';
import { addressRule } from '../login/index.ts';
import { applyTrustedDevice } from '../mfa/index.ts';
import { createSession, hasRecentMfa, revokeSession } from '../sessions/index.ts';
import { amrOf, loadAccount, type SignIn, signInOf } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { issuerFor } from '../tenants/index.ts';
import { issueHandoffCode } from './handoff.service.ts';
import { findPartner, type Partner } from './partner.repository.ts';
import { type PartnerLog, resolvePartnerAccount, type SignInAttempt } from './partner-account.service.ts';
import { notePartnerSignIn } from './partner-links.service.ts';
import { type PartnerKeys, verifyPartnerToken } from './partner-token.service.ts';

export interface PartnerDeps {
  db: Kysely<Database>;
  config: Config;
  keys: PartnerKeys;
  limiter: RateLimiter;
}

/** The partner on the host's tenant, or 404 partner.unknown: never another tenant's. */
async function requirePartner(
  db: Kysely<Database>,
  tenant: TenantContext,
  partnerCode: string,
): Promise<Partner> {
  const partner = await findPartner(db, tenant.code, partnerCode);
  assertThat(partner, partnerErrors.unknown);
  return partner;
}

export interface PartnerSignIn {
  /** The new session's token (the AUTH_X_TOKEN cookie). */
  sessionToken: string;
  /** The partner identity token (SPEC §3) the portal keeps for generate-token. */
  identityToken: string;
  signIn: SignIn;
}

/**
 * POST /api/partners/{partnerCode}/sso: a partner token in, an authx session out (issue 8,
 * steps 2–3). The token is verified (partner-token.service.ts); its jti is then accepted once,
 * by an INSERT that a second use of the same jti cannot pass on any engine. The partner's
 * subject maps to an account by the partner's linking policy; then a session of provider
 * 'authx' opens, replacing any the browser held (session fixation); on a device the user
 * trusted within the period, MFA is passed for it, as for a password sign-in. The jti, a new
 * link and the session are written in one transaction: a request that fails (an outage) leaves
 * the jti unused, so the portal's retry after a network error can still succeed. Every attempt
 * that reaches a registered partner is audited (partner.sign_in): its partner, subject, account
 * and result, a success in the sign-in's own transaction.
 */
export async function signInWithPartner(
  deps: PartnerDeps,
  tenant: TenantContext,
  partnerCode: string,
  input: {
    token: string;
    ip: string;
    userDeviceToken?: string | undefined;
    previousToken?: string | undefined;
  },
  now: number,
  log: PartnerLog,
): Promise<PartnerSignIn> {
  const { db, config, keys, limiter } = deps;
  // Counted before anything is verified or fetched, per client address and tenant, at the
  // login's rate: a flood of made-up tokens costs a counter, not signature checks and JWKS
  // fetches. A rate, not a lock: nothing here guesses a secret.
  const byAddress = await limiter.reserve(
    limitKeys.partnerAddress(tenant.code, input.ip),
    addressRule(config.login),
    now,
  );
  if (!byAddress.allowed) {
    throw new AppError(errorCodes.rateLimited, { fields: retryAfter(byAddress.retryAfterMs) });
  }
  const partner = await requirePartner(db, tenant, partnerCode);
  const logFields = { tenant: tenant.code, partner: partner.code };
  // What the audit entry of this attempt names (issue 16): filled in as it becomes known.
  const attempt: SignInAttempt = { subject: null, account: null };
  try {
    const claims = await verifyPartnerToken(
      keys,
      partner,
      { token: input.token, audience: issuerFor(config, tenant), now },
      (reason, error) =>
        log.warn(
          { ...logFields, reason, err: error instanceof Error ? error.message : undefined },
          'partner token refused',
        ),
    );
    attempt.subject = claims.sub;
    return await openPartnerSession(deps, tenant, partner, claims, input, now, log, attempt);
  } catch (error) {
    // Every refusal is audited with its code; an outage (no database) cannot be, and is logged.
    const result = error instanceof AppError ? error.code : errorCodes.internal;
    await db
      .transaction()
      .execute((trx) => auditSignIn(trx, tenant, partner, attempt, result, now))
      .catch((auditError: unknown) =>
        log.warn(
          { ...logFields, err: auditError instanceof Error ? auditError.message : undefined },
          'partner sign-in not audited',
        ),
      );
    throw error;
  }
}

/**
 * The sign-in proper, for a verified token: the jti, the account and the session in one
 * transaction, with the audit entry of its success (a refusal is audited by the caller).
 */
async function openPartnerSession(
  deps: PartnerDeps,
  tenant: TenantContext,
  partner: Partner,
  claims: PartnerTokenClaims,
  input: { ip?: string; userDeviceToken?: string | undefined; previousToken?: string | undefined },
  now: number,
  log: PartnerLog,
  attempt: SignInAttempt,
): Promise<PartnerSignIn> {
  const { db } = deps;
  const logFields = { tenant: tenant.code, partner: partner.code };
  const identityToken = createToken();
  // A concurrent first sign-in of the same subject may create the account or link first: the
  // loser's transaction fails on a unique key and runs once more, finding what the winner made.
  for (let retry = 0; ; retry++) {
    try {
      const opened = await db.transaction().execute(async (trx) => {
        await acceptJti(trx, tenant, partner, claims);
        const user = await resolvePartnerAccount(trx, tenant, partner, claims, now, log, attempt);
        const account = await loadAccount(trx, tenant, user.id);
        if (!account) throw new AppError(partnerErrors.accountDisabled);
        if (input.previousToken) await revokeSession(trx, tenant.code, input.previousToken);
        const created = await createSession(
          trx,
          {
            tenantCode: tenant.code,
            userId: user.id,
            provider: 'authx',
            partnerCode: partner.code,
            partnerTokenHash: hashToken(identityToken),
          },
          now,
        );
        // skipMfa never applies to an account that used a factor within the trusted-device
        // period (issue 16): a factor removed since then does not reopen the skip.
        const skipMfa =
          partner.skipMfa &&
          !(await hasRecentMfa(
            trx,
            {
              tenantCode: tenant.code,
              userId: user.id,
              trustedDeviceDays: tenant.settings.mfa.trustedDeviceDays,
            },
            now,
          ));
        await auditSignIn(trx, tenant, partner, attempt, 'success', now);
        await notePartnerSignIn(
          trx,
          deps.config,
          tenant,
          user,
          partner,
          { linked: attempt.linked ?? null, ip: input.ip },
          now,
        );
        return { ...account, ...created, skipMfa };
      });
      const { session, user, mfaEnrolled } = opened;
      if (mfaEnrolled && (await applyTrustedDevice(db, tenant, session, input.userDeviceToken, now))) {
        session.mfa_method = 'device';
        session.mfa_verified_at = now;
      }
      const signIn = signInOf(tenant, session, user, mfaEnrolled, now, { skipMfa: opened.skipMfa });
      log.info({ ...logFields, user: user.id }, 'partner sign-in');
      return { sessionToken: opened.token, identityToken, signIn };
    } catch (error) {
      if (error instanceof JtiReplayed) {
        log.warn(logFields, 'partner token replayed');
        throw new AppError(partnerErrors.tokenReplayed);
      }
      if (retry === 0 && isUniqueViolation(error)) {
        attempt.account = null;
        attempt.linked = null;
        continue;
      }
      throw error;
    }
  }
}

/**
 * The audit entry of a partner sign-in (issue 16): partner, subject, account and result
 * (`success` or the refusal's code), written by Keycard itself (the system actor). Users are
 * named by id, as everywhere in the log.
 */
async function auditSignIn(
  trx: Kysely<Database>,
  tenant: TenantContext,
  partner: Partner,
  attempt: SignInAttempt,
  result: string,
  now: number,
): Promise<void> {
  await recordAudit(
    trx,
    systemActor,
    {
      tenant: tenant.code,
      action: partnerAuditActions.signIn,
      target: attempt.account ? { kind: 'user', id: attempt.account } : { kind: 'partner', id: partner.code },
      after: { partner: partner.code, subject: attempt.subject, account: attempt.account, result },
    },
    now,
  );
}

class JtiReplayed extends Error {}

/**
 * Each jti once per partner (RFC 7519 §4.1.7, the replay defence fosite lacked in
 * CVE-2020-15222): the primary key makes a second insert a no-op, and that is the replay. The
 * row outlives the token's expiry (with the clock tolerance), then the janitor removes it.
 */
async function acceptJti(
  trx: Transaction<Database>,
  tenant: TenantContext,
  partner: Partner,
  claims: PartnerTokenClaims,
): Promise<void> {
  const inserted = await trx
    .insertInto('partner_token_uses')
    .values({
      tenant_code: tenant.code,
      partner_code: partner.code,
      jti: claims.jti,
      expires_at: (claims.exp + partnerTokenClockToleranceSeconds) * 1000,
    })
    .onConflict((oc) => oc.columns(['tenant_code', 'partner_code', 'jti']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new JtiReplayed();
}

/**
 * POST /api/partners/{partnerCode}/generate-token (issue 8, step 4): for this partner's complete
 * authx session whose partner identity token is the one given, a one-time hand-off code bound to
 * the tenant, the account, the partner and the address it goes to (registered for the partner
 * or the tenant, exact match: invariant 2).
 */
export async function generatePartnerHandoff(
  deps: PartnerDeps,
  tenant: TenantContext,
  partnerCode: string,
  signIn: SignIn | null,
  input: { token: string; redirectUri?: string | undefined },
  now: number,
): Promise<GenerateTokenResponse> {
  const partner = await requirePartner(deps.db, tenant, partnerCode);
  if (!signIn) throw new AppError(errorCodes.sessionRequired);
  const { session } = signIn;
  assertThat(
    session.provider === 'authx' &&
      session.partner_code === partner.code &&
      session.partner_token_hash !== null &&
      session.partner_token_hash === hashToken(input.token),
    partnerErrors.sessionMismatch,
  );
  if (!signIn.complete) throw new AppError(errorCodes.sessionIncomplete);
  const redirectUri = input.redirectUri ?? partner.redirectUris[0] ?? tenant.defaultRedirectUri;
  assertThat(
    partner.redirectUris.includes(redirectUri) || tenant.allowedRedirects.has(redirectUri),
    errorCodes.redirectNotAllowed,
  );
  const code = await issueHandoffCode(
    deps.db,
    {
      tenantCode: tenant.code,
      userId: signIn.user.id,
      data: {
        partnerCode: partner.code,
        redirectUri,
        amr: amrOf(session),
        authTime: Math.floor(session.created_at / 1000),
      },
    },
    now,
  );
  return { token: code, tenantCode: tenant.code, redirectUri };
}

/**
 * GET /api/partners/{partnerCode}/users/{email}/help-link: the partner's help URL for the
 * address, else the tenant's login help. It never looks at accounts, so the answer is the
 * same whether the address has one (invariant 4).
 */
export async function partnerHelpLink(
  db: Kysely<Database>,
  tenant: TenantContext,
  partnerCode: string,
  email: string,
): Promise<{ url: string | null }> {
  const partner = await requirePartner(db, tenant, partnerCode);
  if (partner.helpUrlTemplate) {
    const url = partner.helpUrlTemplate
      .replaceAll('{email}', encodeURIComponent(email))
      .replaceAll('{partnerCode}', encodeURIComponent(partner.code));
    return { url };
  }
  return { url: tenant.theme.links.loginHelpUrl ?? null };
}
