import { type Locale, locales, paths } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import {
  partnerLinksRemovedTemplate,
  renderPartnerLinksRemovedMail,
} from '../../platform/messaging/templates/account-mail.ts';
import { consumeUserTokens } from '../../platform/shared/one-time-token.ts';
import type { TenantContext } from '../tenants/index.ts';

/** A partner link removed from an account. */
export interface RemovedLink {
  partnerCode: string;
  partnerName: string;
  subject: string;
}

/**
 * Issue 16, the pre-account takeover: someone who is not the mailbox owner may have had an
 * account provisioned (or linked) through a partner before the owner ever saw it. When the
 * mailbox owner claims the account — a password reset, an activation or an e-mail
 * verification, each of which proves the mailbox — every partner link the owner did not
 * confirm is removed, the removed subjects are remembered so they are not linked again by
 * e-mail, their partner sessions and pending hand-off codes end, and the owner gets a mail
 * naming the partners. Runs inside the claim's transaction, so both happen or neither.
 * Answers the removed links (none for an account whose links are all confirmed: the usual case).
 */
export async function claimAccount(
  trx: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  user: { id: string; email: string; locale: string },
  now: number,
): Promise<RemovedLink[]> {
  const unconfirmed = await trx
    .selectFrom('partner_identities as i')
    .innerJoin('partners as p', (join) =>
      join.onRef('p.tenant_code', '=', 'i.tenant_code').onRef('p.partner_code', '=', 'i.partner_code'),
    )
    .select(['i.partner_code', 'i.subject', 'p.display_name'])
    .where('i.tenant_code', '=', tenant.code)
    .where('i.user_id', '=', user.id)
    .where('i.owner_confirmed_at', 'is', null)
    .orderBy('p.display_name')
    .orderBy('i.subject')
    .execute();
  if (unconfirmed.length === 0) return [];
  const removed = unconfirmed.map((row) => ({
    partnerCode: row.partner_code,
    partnerName: row.display_name,
    subject: row.subject,
  }));
  await removeLinks(trx, tenant.code, user.id, removed, 'claim', now);
  const partnerNames = [...new Set(removed.map((link) => link.partnerName))];
  await queuePartnerLinksRemovedMail(trx, config, tenant, user, partnerNames, now);
  return removed;
}

/**
 * Removes links of one account and remembers the subjects as refused (by the owner, or by a
 * claim), then ends what the removed links carried: the account's sessions opened through
 * those partners and every pending hand-off code of the account.
 */
export async function removeLinks(
  trx: Kysely<Database>,
  tenantCode: string,
  userId: string,
  links: Array<{ partnerCode: string; subject: string }>,
  reason: 'owner' | 'claim',
  now: number,
): Promise<void> {
  for (const link of links) {
    await trx
      .deleteFrom('partner_identities')
      .where('tenant_code', '=', tenantCode)
      .where('partner_code', '=', link.partnerCode)
      .where('subject', '=', link.subject)
      .where('user_id', '=', userId)
      .execute();
    await trx
      .insertInto('partner_link_refusals')
      .values({
        tenant_code: tenantCode,
        partner_code: link.partnerCode,
        subject: link.subject,
        user_id: userId,
        reason,
        removed_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['tenant_code', 'partner_code', 'subject', 'user_id'])
          .doUpdateSet({ reason, removed_at: now }),
      )
      .execute();
  }
  const partnerCodes = [...new Set(links.map((link) => link.partnerCode))];
  if (partnerCodes.length > 0) {
    await trx
      .deleteFrom('sessions')
      .where('tenant_code', '=', tenantCode)
      .where('user_id', '=', userId)
      .where('provider', '=', 'authx')
      .where('partner_code', 'in', partnerCodes)
      .execute();
  }
  await consumeUserTokens(trx, { tenantCode, userId, purpose: 'PARTNER_HANDOFF' }, now);
}

function localeOf(value: string): Locale {
  return (locales as readonly string[]).includes(value) ? (value as Locale) : 'en';
}

/** The mail naming the removed partners, in the tenant's branding and the user's language. */
async function queuePartnerLinksRemovedMail(
  trx: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  user: { email: string; locale: string },
  partnerNames: string[],
  now: number,
): Promise<string> {
  const locale = localeOf(user.locale);
  const origin = publicOrigin(config, tenant.loginDomain);
  const link = new URL(paths.login, `${origin}/`);
  link.searchParams.set('langCode', locale);
  const content = await renderPartnerLinksRemovedMail({
    locale,
    theme: tenant.theme,
    origin,
    link: link.href,
    partners: partnerNames,
  });
  return enqueueMessage(
    trx,
    {
      tenantCode: tenant.code,
      channel: 'email',
      recipient: user.email,
      template: partnerLinksRemovedTemplate,
      content,
    },
    now,
  );
}
