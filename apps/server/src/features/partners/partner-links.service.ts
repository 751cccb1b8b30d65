import {
  errorCodes,
  type PartnerLinksResponse,
  partnerErrors,
  type partnerLinkMethods,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { recordActivity, removeLinks, sendSecurityMail, type UserRow } from '../accounts/index.ts';
import type { SignIn } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';

/**
 * The signed-in account's partner links (issue 16), for the account page: which partner
 * subjects may sign in to it, whether its owner confirmed each, and which were removed.
 * Only a complete sign-in may read or change them (every step the tenant requires done).
 */
function requireComplete(signIn: SignIn | null): SignIn {
  if (!signIn) throw new AppError(errorCodes.sessionRequired);
  if (!signIn.complete) throw new AppError(errorCodes.sessionIncomplete);
  return signIn;
}

export async function listPartnerLinks(
  db: Kysely<Database>,
  tenant: TenantContext,
  signIn: SignIn | null,
): Promise<PartnerLinksResponse> {
  const { user } = requireComplete(signIn);
  return linksOf(db, tenant, user.id);
}

async function linksOf(
  db: Kysely<Database>,
  tenant: TenantContext,
  userId: string,
): Promise<PartnerLinksResponse> {
  const links = await db
    .selectFrom('partner_identities as i')
    .innerJoin('partners as p', (join) =>
      join.onRef('p.tenant_code', '=', 'i.tenant_code').onRef('p.partner_code', '=', 'i.partner_code'),
    )
    .select([
      'i.partner_code',
      'p.display_name',
      'i.subject',
      'i.link_method',
      'i.linked_at',
      'i.last_sign_in_at',
      'i.owner_confirmed_at',
    ])
    .where('i.tenant_code', '=', tenant.code)
    .where('i.user_id', '=', userId)
    .orderBy('i.partner_code')
    .orderBy('i.subject')
    .execute();
  const removed = await db
    .selectFrom('partner_link_refusals')
    .select(['partner_code', 'subject', 'removed_at', 'reason'])
    .where('tenant_code', '=', tenant.code)
    .where('user_id', '=', userId)
    .orderBy('partner_code')
    .orderBy('subject')
    .execute();
  return {
    links: links.map((row) => ({
      partnerCode: row.partner_code,
      partnerName: row.display_name,
      subject: row.subject,
      method: row.link_method as (typeof partnerLinkMethods)[number],
      linkedAt: Number(row.linked_at),
      lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
      confirmedAt: row.owner_confirmed_at === null ? null : Number(row.owner_confirmed_at),
    })),
    removed: removed.map((row) => ({
      partnerCode: row.partner_code,
      subject: row.subject,
      removedAt: Number(row.removed_at),
      reason: row.reason,
    })),
  };
}

/**
 * PUT …/partner-links/{partnerCode}/{subject}: the owner keeps the link (it then survives a
 * claim), or allows a removed subject to be linked again on its next sign-in. Only from a
 * session the owner opened with Keycard's own credentials: a partner session cannot vouch for
 * a partner link, or the pre-account attacker would confirm their own.
 */
export async function keepPartnerLink(
  db: Kysely<Database>,
  tenant: TenantContext,
  signIn: SignIn | null,
  link: { partnerCode: string; subject: string },
  now: number,
): Promise<PartnerLinksResponse> {
  const { user, session } = requireComplete(signIn);
  if (session.provider === 'authx') throw new AppError(partnerErrors.ownerSessionRequired);
  const kept = await db
    .updateTable('partner_identities')
    .set({ owner_confirmed_at: now })
    .where('tenant_code', '=', tenant.code)
    .where('partner_code', '=', link.partnerCode)
    .where('subject', '=', link.subject)
    .where('user_id', '=', user.id)
    .where('owner_confirmed_at', 'is', null)
    .executeTakeFirst();
  if (Number(kept.numUpdatedRows) === 0) {
    const allowed = await db
      .deleteFrom('partner_link_refusals')
      .where('tenant_code', '=', tenant.code)
      .where('partner_code', '=', link.partnerCode)
      .where('subject', '=', link.subject)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (Number(allowed.numDeletedRows) === 0 && !(await hasLink(db, tenant, user.id, link))) {
      throw new AppError(partnerErrors.linkNotFound);
    }
  }
  return linksOf(db, tenant, user.id);
}

/**
 * DELETE …/partner-links/{partnerCode}/{subject}: the owner drops the link for good. The
 * subject is remembered as removed (not linked again by e-mail), and the account's sessions
 * through that partner and its pending hand-off codes end (account-claim.ts removeLinks).
 */
export async function dropPartnerLink(
  db: Kysely<Database>,
  tenant: TenantContext,
  signIn: SignIn | null,
  link: { partnerCode: string; subject: string },
  now: number,
): Promise<PartnerLinksResponse> {
  const { user } = requireComplete(signIn);
  await db.transaction().execute(async (trx) => {
    if (!(await hasLink(trx, tenant, user.id, link))) throw new AppError(partnerErrors.linkNotFound);
    await removeLinks(trx, tenant.code, user.id, [link], 'owner', now);
  });
  return linksOf(db, tenant, user.id);
}

async function hasLink(
  db: Kysely<Database>,
  tenant: TenantContext,
  userId: string,
  link: { partnerCode: string; subject: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('partner_identities')
    .select('user_id')
    .where('tenant_code', '=', tenant.code)
    .where('partner_code', '=', link.partnerCode)
    .where('subject', '=', link.subject)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A partner sign-in in the account's recent activity and, when it linked the partner to an
 * account that existed already (issue 18), the owner's security mail and activity entry: a
 * partner that can now sign them in is a change to how the account signs in. An account the
 * partner has just made has no owner yet to tell. Runs in the sign-in's transaction.
 */
export async function notePartnerSignIn(
  trx: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  user: Pick<UserRow, 'id' | 'email' | 'locale'>,
  partner: { displayName: string },
  input: { linked: (typeof partnerLinkMethods)[number] | null; ip?: string | undefined },
  now: number,
): Promise<void> {
  const who = { tenantCode: tenant.code, userId: user.id, ip: input.ip };
  if (input.linked === 'verified-email') {
    await recordActivity(trx, { ...who, kind: 'partner-linked', detail: { name: partner.displayName } }, now);
    await sendSecurityMail(
      trx,
      config,
      { tenant, user, event: 'partner-linked', partner: partner.displayName, ip: input.ip },
      now,
    );
  }
  await recordActivity(trx, { ...who, kind: 'sign-in', detail: { method: 'partner' } }, now);
}
