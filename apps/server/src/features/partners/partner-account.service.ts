import { randomUUID } from 'node:crypto';
import { emailSchema, type Locale, locales, type PartnerTokenClaims, partnerErrors } from '@keycard/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { UserRow } from '../accounts/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import type { Partner } from './partner.repository.ts';
import type { PartnerLinkMethod } from './partner.schema.ts';

/** Where the service says what it refused and why (the answer itself says nothing more). */
export interface PartnerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** The subject and account a partner sign-in attempt concerned, as far as it got. */
export interface SignInAttempt {
  /** The token's subject, once its signature verified (an unverified claim names nobody). */
  subject: string | null;
  /** The account the subject maps to, once found. */
  account: string | null;
  /** How the subject was linked to the account by this attempt, if it was (its activity and mail). */
  linked?: PartnerLinkMethod | null;
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
export async function resolvePartnerAccount(
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
  attempt.linked = method;
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
    // Only a partner-verified address is provisioned (resolvePartnerAccount); Keycard has not checked it.
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
