import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AdminPermission,
  type AdminRole,
  adminErrors,
  canonicalEmail,
  errorCodes,
  type Locale,
  operatorTenantCode,
  rolePermissions,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import { type AuditActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Engine } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { consumeUserTokens, issueToken } from '../../platform/shared/one-time-token.ts';
import { accountLink, findUserByEmail, insertUser, inviteUser } from '../accounts/index.ts';
import { raiseTenantVersion, TenantDirectory } from '../tenants/index.ts';
import { ensureOperatorTenant } from './operator-tenant.ts';

/**
 * Operators (docs/admin-api.md#operators): the people and machines that may use the admin
 * API. They belong to the operator tenant, served on ADMIN_DOMAIN: people sign in there like
 * any user (MFA required by the tenant's settings), machines use OAuth client credentials of
 * its provider. Nothing here runs by itself: a production start with no operator creates
 * nothing; `keycard operators create-owner` does, and says so. The operator tenant itself is
 * kept in operator-tenant.ts.
 */

export interface Operator {
  id: string;
  kind: 'human' | 'client';
  subject: string;
  role: AdminRole;
  /** Null: every tenant (always for an owner). */
  tenants: string[] | null;
  createdAt: number;
  /** A person's current address (the operator tenant's account); null for a machine. */
  email: string | null;
}

/** How long an activation link printed by create-owner is valid. */
const ownerActivationMs = 24 * 3_600_000;

function operatorOf(row: Database['operators'] & { email: string | null }): Operator {
  return {
    id: row.id,
    kind: row.kind as Operator['kind'],
    subject: row.subject,
    role: row.role as AdminRole,
    tenants: row.tenants ? (JSON.parse(row.tenants) as string[]) : null,
    createdAt: Number(row.created_at),
    email: row.kind === 'human' ? row.email : null,
  };
}

/** Operators with a person's address, read from the operator tenant's account in the same query. */
function selectOperators(db: Kysely<Database>) {
  return db
    .selectFrom('operators')
    .leftJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'operators.subject')
        .on('users.tenant_code', '=', operatorTenantCode)
        .on('operators.kind', '=', 'human'),
    )
    .selectAll('operators')
    .select('users.email');
}

export async function findOperator(
  db: Kysely<Database>,
  kind: Operator['kind'],
  subject: string,
): Promise<Operator | null> {
  const row = await selectOperators(db)
    .where('operators.kind', '=', kind)
    .where('operators.subject', '=', subject)
    .executeTakeFirst();
  return row ? operatorOf(row) : null;
}

/**
 * GET /me: the operator, the e-mail address of a person's account (null for a machine) and
 * what its role permits, so the console offers only what the API will allow.
 */
export function describeOperator(operator: Operator): {
  operator: Operator;
  email: string | null;
  permissions: AdminPermission[];
} {
  return { operator, email: operator.email, permissions: [...rolePermissions[operator.role]] };
}

/** Every operator, people with their address: one query, however many there are. */
export async function listOperators(db: Kysely<Database>): Promise<Operator[]> {
  const rows = await selectOperators(db).orderBy('operators.created_at').orderBy('operators.id').execute();
  return rows.map(operatorOf);
}

/**
 * The first owner: the operator tenant (created if missing), a pending account for the
 * address, an owner operator for it, and a single-use activation link (24 hours) to print.
 * The owner sets a password there and an MFA factor at the first sign-in.
 */
export async function createOwner(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  email: string,
  now: number,
): Promise<{ link: string; expiresAt: number; tenantCreated: boolean }> {
  const { db, config } = deps;
  const tenantCreated = await ensureOperatorTenant(deps, now);
  const tenant = await new TenantDirectory(db).byCode(operatorTenantCode);
  if (!tenant) throw new Error('the operator tenant is missing');
  const address = canonicalEmail(email);
  if (address === undefined)
    throw new AppError(errorCodes.validationFailed, { fields: { email: 'invalid e-mail' } });
  return db.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, tenant.code, address);
    if (existing && existing.status !== 'pending') throw new AppError(adminErrors.operatorExists);
    const user =
      existing ??
      (await insertUser(
        trx,
        {
          tenantCode: tenant.code,
          email: address,
          type: 'staff',
          locale: 'en',
          status: 'pending',
          emailVerified: true,
          emailVerificationRequired: false,
        },
        now,
      ));
    if (!(await findOperator(trx, 'human', user.id))) {
      await insertOperator(
        trx,
        deps.actor,
        { kind: 'human', subject: user.id, role: 'owner', tenants: null, email: user.email },
        now,
      );
    }
    // Only the newest link works.
    await consumeUserTokens(trx, { tenantCode: tenant.code, userId: user.id, purpose: 'ACTIVATE' }, now);
    const token = await issueToken(
      trx,
      { tenantCode: tenant.code, userId: user.id, purpose: 'ACTIVATE', ttlMs: ownerActivationMs },
      now,
    );
    return {
      link: accountLink(config, tenant, 'activation', token, user),
      expiresAt: now + ownerActivationMs,
      tenantCreated,
    };
  });
}

async function insertOperator(
  db: Kysely<Database>,
  actor: AuditActor,
  input: {
    kind: Operator['kind'];
    subject: string;
    role: AdminRole;
    tenants: string[] | null;
    email: string | null;
  },
  now: number,
): Promise<Operator> {
  const row = {
    id: randomUUID(),
    kind: input.kind,
    subject: input.subject,
    role: input.role,
    tenants: input.role === 'owner' || !input.tenants ? null : JSON.stringify([...new Set(input.tenants)]),
    created_at: now,
  };
  await db.insertInto('operators').values(row).execute();
  await recordAudit(
    db,
    actor,
    {
      tenant: operatorTenantCode,
      action: 'operator.create',
      target: { kind: 'operator', id: row.id },
      after: { kind: row.kind, subject: row.subject, role: row.role, tenants: row.tenants },
    },
    now,
  );
  return operatorOf({ ...row, email: input.email });
}

/**
 * A machine operator: a confidential client of the operator tenant that may use only the
 * client credentials grant, mapped to a role. Answers its secret (256 bits), shown once.
 */
export async function createMachineClient(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  input: { clientId: string; role: AdminRole; tenants: string[] | null },
  now: number,
): Promise<{ operator: Operator; secret: string }> {
  const { db } = deps;
  await ensureOperatorTenant(deps, now);
  const secret = randomBytes(32).toString('base64url');
  const metadata = {
    client_id: input.clientId,
    client_secret: hashClientSecret(secret),
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('oidc_clients')
        .values({
          tenant_code: operatorTenantCode,
          client_id: input.clientId,
          metadata: JSON.stringify(metadata),
          created_at: now,
        })
        .execute();
      // The provider of the operator tenant is rebuilt with the new client on every instance.
      await raiseTenantVersion(trx, operatorTenantCode);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: operatorTenantCode,
          action: 'client.create',
          target: { kind: 'client', id: input.clientId },
          after: { grantTypes: metadata.grant_types, secret },
        },
        now,
      );
      const operator = await insertOperator(
        trx,
        deps.actor,
        { kind: 'client', subject: input.clientId, ...input, email: null },
        now,
      );
      return { operator, secret };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(adminErrors.operatorExists, { cause: error });
    throw error;
  }
}

/**
 * A person as an operator: a pending account of the operator tenant with its activation mail
 * (on the operator host), and the operator with the role. Inviting a pending address again
 * sends a new link; an address that is already an operator is refused.
 */
export async function inviteOperator(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  input: { email: string; role: AdminRole; tenants: string[] | null; locale: Locale },
  now: number,
): Promise<{ operator: Operator; created: boolean }> {
  await ensureOperatorTenant(deps, now);
  const tenant = await new TenantDirectory(deps.db).byCode(operatorTenantCode);
  if (!tenant) throw new Error('the operator tenant is missing');
  const existing = await findUserByEmail(deps.db, operatorTenantCode, input.email);
  if (existing && existing.status !== 'pending') throw new AppError(adminErrors.operatorExists);
  const { user } = await inviteUser(
    { db: deps.db, config: deps.config },
    tenant,
    { email: input.email, type: 'staff', locale: input.locale },
    now,
  );
  const known = await findOperator(deps.db, 'human', user.id);
  if (known) return { operator: known, created: false };
  try {
    const operator = await deps.db
      .transaction()
      .execute((trx) =>
        insertOperator(
          trx,
          deps.actor,
          { kind: 'human', subject: user.id, role: input.role, tenants: input.tenants, email: user.email },
          now,
        ),
      );
    return { operator, created: true };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(adminErrors.operatorExists, { cause: error });
    throw error;
  }
}

async function operatorById(db: Kysely<Database>, id: string): Promise<Operator> {
  const row = await selectOperators(db).where('operators.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError(adminErrors.operatorNotFound);
  return operatorOf(row);
}

/**
 * Locks the owners for the rest of the transaction (PostgreSQL; SQLite runs one write
 * transaction at a time anyway), so two owners demoted at once cannot both see the other
 * one remain.
 */
async function lockOwners(db: Kysely<Database>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await sql`select id from operators where role = 'owner' for update`.execute(db);
}

/** Refuses a change that would leave no owner (checked inside the change's transaction). */
async function assertOwnerRemains(db: Kysely<Database>, leaving: string): Promise<void> {
  const others = await db
    .selectFrom('operators')
    .select('id')
    .where('role', '=', 'owner')
    .where('id', '!=', leaving)
    .execute();
  if (others.length === 0) throw new AppError(adminErrors.lastOwner);
}

export async function changeOperator(
  deps: { db: Kysely<Database>; engine: Engine; actor: AuditActor },
  id: string,
  patch: { role?: AdminRole | undefined; tenants?: string[] | null | undefined },
  now: number,
): Promise<Operator> {
  return deps.db.transaction().execute(async (trx) => {
    await lockOwners(trx, deps.engine);
    const current = await operatorById(trx, id);
    const role = patch.role ?? current.role;
    const tenants = role === 'owner' ? null : patch.tenants === undefined ? current.tenants : patch.tenants;
    if (current.role === 'owner' && role !== 'owner') await assertOwnerRemains(trx, id);
    await trx
      .updateTable('operators')
      .set({ role, tenants: tenants ? JSON.stringify([...new Set(tenants)]) : null })
      .where('id', '=', id)
      .execute();
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: operatorTenantCode,
        action: 'operator.update',
        target: { kind: 'operator', id },
        before: { role: current.role, tenants: current.tenants },
        after: { role, tenants },
      },
      now,
    );
    return { ...current, role, tenants };
  });
}

/**
 * Removes an operator: a person keeps the account but can no longer use the API; a machine's
 * client is removed with it, so its tokens fail at once.
 */
export async function removeOperator(
  deps: { db: Kysely<Database>; engine: Engine; actor: AuditActor },
  id: string,
  now: number,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await lockOwners(trx, deps.engine);
    const current = await operatorById(trx, id);
    if (current.role === 'owner') await assertOwnerRemains(trx, id);
    await trx.deleteFrom('operators').where('id', '=', id).execute();
    if (current.kind === 'client') {
      await trx
        .deleteFrom('oidc_clients')
        .where('tenant_code', '=', operatorTenantCode)
        .where('client_id', '=', current.subject)
        .execute();
      await raiseTenantVersion(trx, operatorTenantCode);
    }
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: operatorTenantCode,
        action: 'operator.remove',
        target: { kind: 'operator', id },
        before: {
          kind: current.kind,
          subject: current.subject,
          role: current.role,
          tenants: current.tenants,
        },
      },
      now,
    );
  });
}
