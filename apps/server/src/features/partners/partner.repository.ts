import {
  type PartnerAlgorithm,
  type PartnerConfig,
  type PartnerJwks,
  type PartnerLinkingPolicy,
  partnerConfigSchema,
  redirectTargetProblem,
} from '@keycard/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { PartnersTable } from './partner.schema.ts';

export type PartnerRow = Selectable<PartnersTable>;

/** A partner of one tenant, as the services read it. */
export interface Partner extends PartnerConfig {
  tenantCode: string;
  createdAt: number;
  updatedAt: number;
}

export function partnerOf(row: PartnerRow): Partner {
  return {
    tenantCode: row.tenant_code,
    code: row.partner_code,
    displayName: row.display_name,
    issuer: row.issuer,
    jwksUri: row.jwks_uri,
    jwks: row.jwks === null ? null : (JSON.parse(row.jwks) as PartnerJwks),
    algorithms: JSON.parse(row.algorithms) as PartnerAlgorithm[],
    linking: row.linking as PartnerLinkingPolicy,
    // One stored before the redirect rule (javascript:, data:, …) reads as none.
    redirectUris: (JSON.parse(row.redirect_uris) as string[]).filter(
      (uri) => redirectTargetProblem(uri, { production: false }) === undefined,
    ),
    helpUrlTemplate: row.help_url_template,
    skipMfa: row.skip_mfa === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The partner with this code on this tenant, or null: never another tenant's. */
export async function findPartner(
  db: Kysely<Database>,
  tenantCode: string,
  partnerCode: string,
): Promise<Partner | null> {
  if (partnerCode.length > 64) return null;
  const row = await db
    .selectFrom('partners')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .executeTakeFirst();
  return row ? partnerOf(row) : null;
}

export async function listPartners(db: Kysely<Database>, tenantCode: string): Promise<Partner[]> {
  const rows = await db
    .selectFrom('partners')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .orderBy('partner_code')
    .execute();
  return rows.map(partnerOf);
}

/**
 * Creates or replaces a partner (idempotent). The configuration is checked against the
 * contract first, so nothing unchecked reaches the registry (an `alg` of `none`, a private
 * key in an inline JWKS, two key sources). Answers whether the partner was new.
 */
export async function savePartner(
  db: Kysely<Database>,
  tenantCode: string,
  config: PartnerConfig,
  now: number,
): Promise<{ created: boolean }> {
  const partner = partnerConfigSchema.parse(config);
  const values = {
    display_name: partner.displayName,
    issuer: partner.issuer,
    jwks_uri: partner.jwksUri,
    jwks: partner.jwks === null ? null : JSON.stringify(partner.jwks),
    algorithms: JSON.stringify(partner.algorithms),
    linking: partner.linking,
    redirect_uris: JSON.stringify(partner.redirectUris),
    help_url_template: partner.helpUrlTemplate,
    skip_mfa: partner.skipMfa ? 1 : 0,
    updated_at: now,
  };
  const existed = await findPartner(db, tenantCode, partner.code);
  await db
    .insertInto('partners')
    .values({ tenant_code: tenantCode, partner_code: partner.code, created_at: now, ...values })
    .onConflict((oc) => oc.columns(['tenant_code', 'partner_code']).doUpdateSet(values))
    .execute();
  return { created: !existed };
}

/**
 * Removes a partner with its links and used-token records, and ends the sessions its sign-ins
 * opened: what the partner vouched for no longer stands. Answers whether it existed.
 */
export async function removePartner(
  db: Kysely<Database>,
  tenantCode: string,
  partnerCode: string,
  /** Runs in the removal's transaction, when a partner was removed (its audit entry). */
  alongside?: (trx: Kysely<Database>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await deletePartnerRows(trx, tenantCode, partnerCode);
    if (removed) await alongside?.(trx);
    return removed;
  });
}

/**
 * The removal itself, inside a transaction the caller holds (`keycard apply` removes pruned
 * partners in the plan's transaction, with their audit entries).
 */
export async function deletePartnerRows(
  trx: Kysely<Database>,
  tenantCode: string,
  partnerCode: string,
): Promise<boolean> {
  await trx
    .deleteFrom('sessions')
    .where('tenant_code', '=', tenantCode)
    .where('provider', '=', 'authx')
    .where('partner_code', '=', partnerCode)
    .execute();
  await trx
    .deleteFrom('partner_token_uses')
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .execute();
  await trx
    .deleteFrom('partner_identities')
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .execute();
  await trx
    .deleteFrom('partner_link_refusals')
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .execute();
  const result = await trx
    .deleteFrom('partners')
    .where('tenant_code', '=', tenantCode)
    .where('partner_code', '=', partnerCode)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
