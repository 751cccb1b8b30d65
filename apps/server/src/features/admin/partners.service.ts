import { adminErrors, type PartnerConfig } from '@keycard/contract';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { findPartner, listPartners, type Partner, removePartner, savePartner } from '../partners/index.ts';
import { raiseTenantVersion } from '../tenants/index.ts';
import { type AdminDeps, tenantRow } from './admin.deps.ts';

/**
 * A tenant's partners (docs/partners.md), written only by the owners' partner routes
 * (partners.write). Every change raises the tenant's version in its transaction.
 */

type PartnerFields = Omit<Partner, 'tenantCode' | 'createdAt' | 'updatedAt'>;

function partnerFields(partner: Partner | null): PartnerFields | null {
  if (!partner) return null;
  const { tenantCode: _t, createdAt: _c, updatedAt: _u, ...fields } = partner;
  return fields;
}

export async function listTenantPartners(deps: AdminDeps, code: string): Promise<PartnerFields[]> {
  await tenantRow(deps.db, code);
  return (await listPartners(deps.db, code)).map((partner) => partnerFields(partner)!);
}

/** Creates or replaces a partner, as `keycard partners add|update` and `apply` do. */
export async function savePartnerOf(deps: AdminDeps, code: string, config: PartnerConfig) {
  await tenantRow(deps.db, code);
  const { created, partner } = await deps.db.transaction().execute(async (trx) => {
    const before = partnerFields(await findPartner(trx, code, config.code));
    const saved = await savePartner(trx, code, config, deps.now);
    const after = partnerFields(await findPartner(trx, code, config.code));
    await raiseTenantVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: saved.created ? 'partner.create' : 'partner.update',
        target: { kind: 'partner', id: config.code },
        before: before as Record<string, unknown> | null,
        after: after as Record<string, unknown> | null,
      },
      deps.now,
    );
    return { created: saved.created, partner: after! };
  });
  deps.tenants.invalidate(code);
  return { partner, created };
}

/** Removes a partner with its account links, and ends the sign-ins it opened. */
export async function removeTenantPartner(deps: AdminDeps, code: string, partnerCode: string) {
  await tenantRow(deps.db, code);
  const before = partnerFields(await findPartner(deps.db, code, partnerCode));
  if (!before) throw new AppError(adminErrors.partnerNotFound);
  // The removal, the version raise and the entry commit together, or none of them.
  const removed = await removePartner(deps.db, code, partnerCode, async (trx) => {
    await raiseTenantVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: 'partner.remove',
        target: { kind: 'partner', id: partnerCode },
        before: before as unknown as Record<string, unknown>,
      },
      deps.now,
    );
  });
  if (!removed) throw new AppError(adminErrors.partnerNotFound);
  deps.tenants.invalidate(code);
  return {};
}
