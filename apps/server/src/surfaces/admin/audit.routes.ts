import { adminOperations } from '@keycard/contract/admin-paths';
import { auditChoices, searchNamedAudit } from '../../features/admin/index.ts';
import { exportAudit } from '../../platform/audit/audit.service.ts';
import { scopeOf } from './admin-auth.ts';
import { adminRoute } from './admin-route.ts';

/** The audit log, as far as the operator's scope reaches. */
export const auditRoutes = [
  adminRoute(adminOperations.searchAudit, {
    access: { permission: 'audit.read' },
    errors: [],
    handler: async ({ caller, query }) => {
      const scope = scopeOf(caller.operator);
      return searchNamedAudit(caller.deps.db, { ...query, tenants: scope.only, exceptTenants: scope.except });
    },
  }),

  adminRoute(adminOperations.auditChoices, {
    access: { permission: 'audit.read' },
    errors: [],
    handler: async ({ caller, query }) =>
      auditChoices(caller.deps.db, scopeOf(caller.operator), query.tenant),
  }),

  adminRoute(adminOperations.exportAudit, {
    access: { permission: 'audit.read' },
    errors: [],
    handler: async ({ caller, reply, query }) => {
      const scope = scopeOf(caller.operator);
      reply.header('content-disposition', 'attachment; filename="keycard-audit.jsonl"');
      // Streamed a page at a time: a large log is never held in memory whole.
      return exportAudit(caller.deps.db, { ...query, tenants: scope.only, exceptTenants: scope.except });
    },
  }),
];
