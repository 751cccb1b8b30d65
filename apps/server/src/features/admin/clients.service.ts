import { randomBytes } from 'node:crypto';
import { type AdminClient, type adminClientCreateRequest, adminErrors, errorCodes } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import type { ClientMetadata } from '../tenants/index.ts';
import { assertProductionRedirects, raiseTenantVersion } from '../tenants/index.ts';
import { type AdminDeps, tenantRow } from './admin.deps.ts';
import { withTenantLease } from './tenant-lease.ts';

/**
 * A tenant's OIDC clients (docs/admin-api.md#clients): created, their secrets rotated, disabled
 * and enabled again. Every change raises the tenant's version, so every instance rebuilds the
 * tenant's provider with it within about a second.
 */

const grantTypes = new Set(['authorization_code', 'refresh_token', 'client_credentials']);

function clientOf(metadata: ClientMetadata, disabled: boolean): AdminClient {
  return {
    clientId: metadata.client_id,
    redirectUris: metadata.redirect_uris ?? [],
    postLogoutRedirectUris: metadata.post_logout_redirect_uris ?? [],
    grantTypes: (metadata.grant_types ?? ['authorization_code']).filter(
      (type) => grantTypes.has(type) || type.startsWith('urn:'),
    ) as AdminClient['grantTypes'],
    authMethod: (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as AdminClient['authMethod'],
    disabled,
  };
}

/** The tenant's clients, enabled and disabled, in client id order. */
export async function clientsOf(db: Kysely<Database>, code: string): Promise<AdminClient[]> {
  const enabled = await db
    .selectFrom('oidc_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .execute();
  const disabled = await db
    .selectFrom('disabled_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .execute();
  return [
    ...enabled.map((row) => clientOf(JSON.parse(row.metadata) as ClientMetadata, false)),
    ...disabled.map((row) => clientOf(JSON.parse(row.metadata) as ClientMetadata, true)),
  ].sort((a, b) => a.clientId.localeCompare(b.clientId));
}

function newSecret(): string {
  // 256 bits, shown once and never again.
  return randomBytes(32).toString('base64url');
}

export async function createClient(
  deps: AdminDeps,
  code: string,
  input: z.infer<typeof adminClientCreateRequest>,
) {
  await tenantRow(deps.db, code);
  assertProductionRedirects(deps.config, input);
  const secret = input.authMethod === 'none' ? null : newSecret();
  const metadata: ClientMetadata = {
    client_id: input.clientId,
    ...(secret ? { client_secret: hashClientSecret(secret) } : {}),
    redirect_uris: input.redirectUris,
    post_logout_redirect_uris: input.postLogoutRedirectUris,
    grant_types: input.grantTypes,
    response_types: input.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: input.authMethod,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      const disabled = await trx
        .selectFrom('disabled_clients')
        .select('client_id')
        .where('tenant_code', '=', code)
        .where('client_id', '=', input.clientId)
        .executeTakeFirst();
      if (disabled) throw new AppError(adminErrors.clientExists);
      await trx
        .insertInto('oidc_clients')
        .values({
          tenant_code: code,
          client_id: input.clientId,
          metadata: JSON.stringify(metadata),
          created_at: deps.now,
        })
        .execute();
      await raiseTenantVersion(trx, code);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: code,
          action: 'client.create',
          target: { kind: 'client', id: input.clientId },
          after: { ...clientOf(metadata, false), secret },
        },
        deps.now,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(adminErrors.clientExists, { cause: error });
    throw error;
  }
  deps.tenants.invalidate(code);
  return { client: clientOf(metadata, false), secret };
}

async function storedClient(db: Kysely<Database>, code: string, clientId: string) {
  const row = await db
    .selectFrom('oidc_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.metadata) as ClientMetadata) : null;
}

/**
 * How long after a rotation another rotation of the same client is refused. Two rotations at
 * once would each answer a secret, and only the later one would work: the first caller would
 * deploy a secret that is already dead. Within this window the first rotation stands and the
 * others fail cleanly (409), so every secret Keycard answers works until a later, deliberate
 * rotation.
 */
export const secretRotationWindowMs = 10_000;

/** A new secret for a confidential client: the old one stops working at once. */
export async function rotateClientSecret(deps: AdminDeps, code: string, clientId: string) {
  await tenantRow(deps.db, code);
  const secret = newSecret();
  // Under the tenant's lease, on every instance one rotation at a time: each sees the one
  // before it in the audit log, written in that rotation's transaction.
  const metadata = await withTenantLease(deps.db, code, () =>
    deps.db.transaction().execute(async (trx) => {
      const current = await storedClient(trx, code, clientId);
      if (!current) throw new AppError(adminErrors.clientNotFound);
      if ((current.token_endpoint_auth_method ?? 'client_secret_basic') === 'none') {
        throw new AppError(errorCodes.validationFailed, {
          fields: { authMethod: 'a public client has no secret' },
        });
      }
      const recent = await trx
        .selectFrom('audit_log')
        .select('at')
        .where('tenant_code', '=', code)
        .where('action', '=', 'client.rotate_secret')
        .where('target_id', '=', clientId)
        .where('at', '>', deps.now - secretRotationWindowMs)
        .orderBy('at', 'desc')
        .executeTakeFirst();
      if (recent) {
        const wait = Number(recent.at) + secretRotationWindowMs - deps.now;
        throw new AppError(adminErrors.secretRotatedRecently, { fields: retryAfter(wait) });
      }
      const next = { ...current, client_secret: hashClientSecret(secret) };
      await trx
        .updateTable('oidc_clients')
        .set({ metadata: JSON.stringify(next) })
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .execute();
      await raiseTenantVersion(trx, code);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: code,
          action: 'client.rotate_secret',
          target: { kind: 'client', id: clientId },
          after: { secret },
        },
        deps.now,
      );
      return next;
    }),
  );
  deps.tenants.invalidate(code);
  return { client: clientOf(metadata, false), secret };
}

/**
 * Disables a client: it leaves the provider's client list (every instance rebuilds the
 * tenant's provider within about a second), so its sign-ins and token requests are refused;
 * its metadata and secret are kept for enabling it again.
 */
export async function setClientDisabled(deps: AdminDeps, code: string, clientId: string, disabled: boolean) {
  const row = await tenantRow(deps.db, code);
  if (disabled && row.login_client_id === clientId) throw new AppError(adminErrors.loginClientRequired);
  const client = await deps.db.transaction().execute(async (trx) => {
    const [from, to] = disabled
      ? (['oidc_clients', 'disabled_clients'] as const)
      : (['disabled_clients', 'oidc_clients'] as const);
    const found = await trx
      .selectFrom(from)
      .select(['metadata', 'created_at'])
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!found) {
      const other = await trx
        .selectFrom(to)
        .select('metadata')
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!other) throw new AppError(adminErrors.clientNotFound);
      return { client: clientOf(JSON.parse(other.metadata) as ClientMetadata, disabled), changed: false };
    }
    const removed = await trx
      .deleteFrom(from)
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    // A concurrent request moved it first: nothing more to do.
    if (Number(removed.numDeletedRows) !== 1) {
      return { client: clientOf(JSON.parse(found.metadata) as ClientMetadata, disabled), changed: false };
    }
    await trx
      .insertInto(to)
      .values({
        tenant_code: code,
        client_id: clientId,
        metadata: found.metadata,
        created_at: found.created_at,
      })
      .execute();
    await raiseTenantVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: disabled ? 'client.disable' : 'client.enable',
        target: { kind: 'client', id: clientId },
        before: { disabled: !disabled },
        after: { disabled },
      },
      deps.now,
    );
    return { client: clientOf(JSON.parse(found.metadata) as ClientMetadata, disabled), changed: true };
  });
  deps.tenants.invalidate(code);
  return client.client;
}
