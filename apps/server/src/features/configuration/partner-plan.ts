import type { PartnerConfig, TenantConfig } from '@keycard/contract';
import { listPartners } from '../partners/index.ts';
import type { PlannedObject, TenantPlanContext } from './configuration.types.ts';
import { actionOf, diff } from './field-diff.ts';

function partnerConfigOf(partner: TenantConfig['partners'][number]): PartnerConfig {
  return { ...partner, displayName: partner.displayName ?? partner.code };
}

/** Partners: replaced whole, checked again by the registry's own schema when saved. */
export async function planPartners(context: TenantPlanContext, tenantExists: boolean) {
  const { db, tenant } = context;
  const stored = new Map(
    (tenantExists ? await listPartners(db, tenant.code) : []).map((partner) => {
      const { tenantCode: _t, createdAt: _c, updatedAt: _u, code, ...fields } = partner;
      return [code, fields] as const;
    }),
  );
  const objects: PlannedObject[] = [];
  const changed: PartnerConfig[] = [];
  for (const partner of tenant.partners) {
    const config = partnerConfigOf(partner);
    const { code, ...wanted } = config;
    const existing = stored.get(code);
    if (existing && context.onlyMissing) {
      objects.push({ kind: 'partner', tenant: tenant.code, id: code, action: 'unchanged', fields: [] });
      continue;
    }
    const fields = diff(existing ?? null, wanted);
    const action = actionOf(Boolean(existing), fields);
    objects.push({ kind: 'partner', tenant: tenant.code, id: code, action, fields });
    if (action !== 'unchanged') changed.push(config);
  }
  const listed = new Set(tenant.partners.map((partner) => partner.code));
  const removed = tenant.prune ? [...stored.keys()].filter((code) => !listed.has(code)).sort() : [];
  for (const code of removed) {
    objects.push({ kind: 'partner', tenant: tenant.code, id: code, action: 'remove', fields: [] });
  }
  return { objects, changed, removed };
}
