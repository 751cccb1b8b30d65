import type { TenantConfig } from '@keycard/contract';
import type { FieldChange, PlannedObject, TenantPlanContext } from './configuration.types.ts';

/** Invitations: once per address; an address with an account (in any state) is left alone. */
export async function planInvitations(context: TenantPlanContext, tenantExists: boolean) {
  const { db, tenant } = context;
  const objects: PlannedObject[] = [];
  const changed: TenantConfig['invitations'] = [];
  for (const invitation of tenant.invitations) {
    const { email } = invitation;
    const user = tenantExists
      ? await db
          .selectFrom('users')
          .select('status')
          .where('tenant_code', '=', tenant.code)
          .where('email', '=', email)
          .executeTakeFirst()
      : undefined;
    const fields: FieldChange[] = user
      ? []
      : [
          { field: 'type', after: invitation.type },
          { field: 'locale', after: invitation.locale },
        ];
    objects.push({
      kind: 'invitation',
      tenant: tenant.code,
      id: email,
      action: user ? 'unchanged' : 'create',
      fields,
    });
    if (!user) changed.push({ ...invitation, email });
  }
  return { objects, changed };
}
