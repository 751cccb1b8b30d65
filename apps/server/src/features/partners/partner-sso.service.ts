import { randomUUID } from 'node:crypto';
import {
  emailSchema,
  errorCodes,
  type GenerateTokenResponse,
  type Locale,
  locales,
  type PartnerTokenClaims,
  partnerAuditActions,
  partnerErrors,
  partnerTokenClockToleranceSeconds,
} from '@keycard/contract';
import type { Kysely, Transaction } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';
import { AppError, assertThat, retryAfter } from '../../platform/shared/errors.ts';
import type { UserRow } from '../accounts/user.repository.ts';
import { addressRule } from '../login/login.service.ts';
import { applyTrustedDevice } from '../mfa/mfa.service.ts';
import { createSession, hasRecentMfa, revokeSession } from '../sessions/session.service.ts';
import { amrOf, loadAccount, type SignIn, signInOf } from '../sign-in/sign-in-state.ts';
import { issuerFor } from '../tenants/tenant.service.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { issueHandoffCode } from './handoff.service.ts';
import { findPartner, type Partner } from './partner.repository.ts';
import type { PartnerLinkMethod } from './partner.schema.ts';
import { type PartnerKeys, verifyPartnerToken } from './partner-token.service.ts';

export interface PartnerDeps {
  db: Kysely<Database>;
  config: Config;
  keys: PartnerKeys;
  limiter: RateLimiter;
}

/** Where the service says what it refused and why (the answer itself says nothing more). */
export interface PartnerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
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
  input: { userDeviceToken?: string | undefined; previousToken?: string | undefined },
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
        const user = await accountFor(trx, tenant, partner, claims, now, log, attempt);
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
        continue;
      }
      throw error;
    }
  }
}

/** The subject and account a partner sign-in attempt concerned, as far as it got. */
interface SignInAttempt {
  /** The token's subject, once its signature verified (an unverified claim names nobody). */
  subject: string | null;
  /** The account the subject maps to, once found. */
  account: string | null;
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
 * The account behind the partner's subject: its link, or a first link by the partner's policy.
 * A first link or a new account needs the partner to assert the address as verified
 * (`email_verified: true`), whatever the policy: linking or provisioning on an unverified
 * address is how Keycloak (#53041) and Zitadel let attackers take accounts over, and how a
 * `provision` partner's user could pre-create someone else's account (issue 16). Linking to an
 * existing account also needs Keycard to have verified the address, and never links a subject
 * the account's owner (or a claim) removed. `provision` creates an account only for an address
 * no account has. Every link is recorded and logged.
 *
 * The account's row is locked (a no-op update) before its link is used or made: a claim
 * (account-claim.ts) updates the same row first, so a sign-in racing a password reset either
 * commits before the claim, whose removal then sees its link and session, or runs after it and
 * finds the link gone.
 */
async function accountFor(
  trx: Transaction<Database>,
  tenant: TenantContext,
  partner: Partner,
  claims: PartnerTokenClaims,
  now: number,
  log: PartnerLog,
  attempt: SignInAttempt,
): Promise<UserRow> {
  const logFields = { tenant: tenant.code, partner: partner.code };
  const linked = await trx
    .selectFrom('partner_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('u')
    .where('i.tenant_code', '=', tenant.code)
    .where('i.partner_code', '=', partner.code)
    .where('i.subject', '=', claims.sub)
    .where('u.tenant_code', '=', tenant.code)
    .executeTakeFirst();
  if (linked) {
    attempt.account = linked.id;
    await lockAccount(trx, tenant, linked.id);
    const touched = await trx
      .updateTable('partner_identities')
      .set({ last_sign_in_at: now })
      .where('tenant_code', '=', tenant.code)
      .where('partner_code', '=', partner.code)
      .where('subject', '=', claims.sub)
      .where('user_id', '=', linked.id)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 1) {
      if (linked.status !== 'active') throw new AppError(partnerErrors.accountDisabled);
      return linked;
    }
    // Removed by a claim that committed while this sign-in waited: decide afresh below.
  }

  const notLinked = (reason: string) => {
    log.warn({ ...logFields, reason }, 'partner subject not linked');
    return new AppError(partnerErrors.accountNotLinked);
  };
  if (partner.linking === 'existing-only') throw notLinked('only subjects linked before may sign in');
  // The claim as the partner sent it: an address that Unicode case folding or normalisation
  // would turn into another (KELVIN SIGN for k) is refused, never folded (issue 16, item 4).
  const email = emailSchema.safeParse(claims.email);
  if (!email.success) throw notLinked('no usable e-mail address');
  if (claims.email_verified !== true) {
    log.warn(
      { ...logFields, reason: 'the partner does not assert the address as verified' },
      'partner subject not linked',
    );
    throw new AppError(partnerErrors.emailUnverified);
  }
  const existing = await trx
    .selectFrom('users')
    .selectAll()
    .where('tenant_code', '=', tenant.code)
    .where('email', '=', email.data)
    .executeTakeFirst();

  let user: UserRow;
  let method: PartnerLinkMethod;
  let confirmed = false;
  if (existing) {
    attempt.account = existing.id;
    await lockAccount(trx, tenant, existing.id);
    const current = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', existing.id)
      .where('tenant_code', '=', tenant.code)
      .executeTakeFirstOrThrow();
    if (current.email_verified !== 1) throw notLinked('the address is not verified on both sides');
    if (current.status !== 'active') throw new AppError(partnerErrors.accountDisabled);
    if (await isRefused(trx, tenant, partner, claims.sub, current.id)) {
      throw notLinked('the subject was removed from this account');
    }
    user = current;
    method = 'verified-email';
    // An owner who holds a password proved the mailbox to Keycard: a link on the address both
    // sides verified is theirs. An account without one (made by a partner, never claimed) has
    // no owner yet who could have confirmed it.
    confirmed = current.password_hash !== null;
  } else if (partner.linking === 'provision') {
    user = await createPartnerUser(trx, tenant, email.data, claims, now);
    attempt.account = user.id;
    method = 'provisioned';
  } else {
    throw notLinked('no account has the address');
  }
  await trx
    .insertInto('partner_identities')
    .values({
      tenant_code: tenant.code,
      partner_code: partner.code,
      subject: claims.sub,
      user_id: user.id,
      link_method: method,
      email_at_link: email.data,
      linked_at: now,
      last_sign_in_at: now,
      owner_confirmed_at: confirmed ? now : null,
    })
    .execute();
  log.info({ ...logFields, user: user.id, method }, 'partner subject linked');
  return user;
}

/** Takes the account row's write lock for the rest of the transaction (both engines). */
async function lockAccount(trx: Transaction<Database>, tenant: TenantContext, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', userId)
    .where('tenant_code', '=', tenant.code)
    .execute();
}

/** Whether the account's owner, or a claim of the account, removed this subject from it. */
async function isRefused(
  trx: Transaction<Database>,
  tenant: TenantContext,
  partner: Partner,
  subject: string,
  userId: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('partner_link_refusals')
    .select('user_id')
    .where('tenant_code', '=', tenant.code)
    .where('partner_code', '=', partner.code)
    .where('subject', '=', subject)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** An account made for a partner's user: no password (it signs in through the partner). */
async function createPartnerUser(
  trx: Transaction<Database>,
  tenant: TenantContext,
  email: string,
  claims: PartnerTokenClaims,
  now: number,
): Promise<UserRow> {
  const language = claims.locale?.split(/[-_]/)[0]?.toLowerCase();
  const locale: Locale = (locales as readonly string[]).includes(language ?? '')
    ? (language as Locale)
    : 'en';
  const row: UserRow = {
    id: randomUUID(),
    tenant_code: tenant.code,
    email,
    type: 'partner',
    locale,
    status: 'active',
    password_hash: null,
    password_changed_at: null,
    // Only a partner-verified address is provisioned (accountFor); Keycard has not checked it.
    email_verified: 1,
    email_verification_required: tenant.settings.emailVerificationRequired ? 1 : 0,
    secret_question: null,
    secret_answer_hash: null,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('users').values(row).execute();
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return (
    code === '23505' ||
    errcode === 2067 ||
    errcode === 1555 ||
    (typeof message === 'string' && /UNIQUE constraint failed/.test(message))
  );
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
