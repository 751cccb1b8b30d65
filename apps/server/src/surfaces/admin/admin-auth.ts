import {
  type AdminPermission,
  adminErrors,
  adminScope,
  operatorTenantCode,
  rolePermissions,
} from '@keycard/contract';
import {
  adminResource,
  consoleClientId,
  findOperator,
  type Operator,
} from '../../features/operators/index.ts';
import type { AuditActor } from '../../platform/audit/audit.service.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { mfaFreshUntilClaim } from './admin-provider.ts';

export interface AdminCaller {
  operator: Operator;
  actor: AuditActor;
}

const bearer = /^Bearer ([A-Za-z0-9._~+/-]{16,512}=*)$/i;

function audienceOf(token: { aud?: unknown }): string[] {
  const { aud } = token;
  return Array.isArray(aud) ? aud.map(String) : typeof aud === 'string' ? [aud] : [];
}

/**
 * The caller of an admin API request, from its bearer access token alone (RFC 6750): an opaque
 * token the operator tenant's provider issued for the admin API, looked up in its store, so an
 * expired or revoked token fails at once. A machine client's token maps to the operator of
 * that client; a person's to the operator of that account, which must still be active.
 * Cookies are never read: a browser cannot be made to send a bearer token (no CSRF).
 */
export async function authenticateCaller(
  services: Services,
  authorization: string | undefined,
): Promise<AdminCaller> {
  const match = bearer.exec(authorization ?? '');
  const value = match?.[1];
  if (!value) throw new AppError(adminErrors.unauthenticated);
  const tenant = await services.tenants.byCode(operatorTenantCode);
  if (!tenant) {
    // The directory remembers an unknown code until told otherwise: forget it, so the operator
    // tenant that `keycard operators create-owner` creates later is seen at once.
    services.tenants.invalidate(operatorTenantCode);
    throw new AppError(adminErrors.unauthenticated);
  }
  const { provider } = await services.providers.get(tenant);
  const resource = adminResource(services.config);

  const machine = await provider.ClientCredentials.find(value);
  const machineClientId = machine?.clientId;
  if (machine && machineClientId && !machine.isExpired && audienceOf(machine).includes(resource)) {
    // A client removed since the token was issued gets nothing more.
    const client = await provider.Client.find(machineClientId);
    const operator = client ? await findOperator(services.db, 'client', machineClientId) : null;
    if (!operator) throw new AppError(adminErrors.unauthenticated);
    return { operator, actor: { kind: 'client', id: machineClientId } };
  }
  const person = machine ? undefined : await provider.AccessToken.find(value);
  // A person's token counts only when the console asked for it: another client of the operator
  // tenant (an app someone registered there) must not get a token that works here; and only
  // while the sign-in behind it is within the operator tenant's MFA freshness.
  if (
    person &&
    !person.isExpired &&
    person.accountId &&
    person.clientId === consoleClientId &&
    audienceOf(person).includes(resource) &&
    hasAdminScope(person) &&
    isMfaFresh(person, services.clock.now())
  ) {
    const user = await services.db
      .selectFrom('users')
      .select('status')
      .where('tenant_code', '=', operatorTenantCode)
      .where('id', '=', person.accountId)
      .executeTakeFirst();
    const operator =
      user?.status === 'active' ? await findOperator(services.db, 'human', person.accountId) : null;
    if (!operator) throw new AppError(adminErrors.unauthenticated);
    return { operator, actor: { kind: 'operator', id: operator.id } };
  }
  throw new AppError(adminErrors.unauthenticated);
}

/** A token issued before its freshness was recorded, or past it, is refused (admin-provider.ts). */
function isMfaFresh(token: { extra?: Record<string, unknown> | undefined }, now: number): boolean {
  const until = token.extra?.[mfaFreshUntilClaim];
  return typeof until === 'number' && until * 1000 > now;
}

function hasAdminScope(token: { scope?: string | undefined }): boolean {
  return (token.scope ?? '').split(' ').includes(adminScope);
}

/**
 * Whether the operator's role allows the permission, on the tenant when one is named. The
 * operator tenant is the owners' alone, whatever a non-owner's scope says: acting on its
 * clients or accounts would let anyone with a role make itself owner.
 */
export function isAllowed(operator: Operator, permission: AdminPermission, tenantCode?: string): boolean {
  if (!rolePermissions[operator.role].includes(permission)) return false;
  if (operator.role === 'owner') return true;
  if (tenantCode === operatorTenantCode) return false;
  if (tenantCode === undefined || operator.tenants === null) return true;
  return operator.tenants.includes(tenantCode);
}

export function assertAllowed(operator: Operator, permission: AdminPermission, tenantCode?: string): void {
  if (!isAllowed(operator, permission, tenantCode)) throw new AppError(adminErrors.forbidden);
}

/**
 * The tenants an operator sees in lists and the audit log: everything for an owner, else its
 * tenants, or every customer tenant (`except` the operator tenant).
 */
export function scopeOf(operator: Operator): { only: string[] | null; except: string[] } {
  if (operator.role === 'owner') return { only: null, except: [] };
  return { only: operator.tenants, except: [operatorTenantCode] };
}
