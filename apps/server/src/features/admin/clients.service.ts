import { randomBytes } from 'node:crypto';
import {
  type AdminClient,
  type adminClientCreateRequest,
  type adminClientUpdateRequest,
  adminErrors,
  errorCodes,
} from '@keycard/contract';
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
    name: typeof metadata.client_name === 'string' && metadata.client_name ? metadata.client_name : null,
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
    ...(input.name ? { client_name: input.name } : {}),
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
 * Changes a client's redirect and post-logout URIs, grant types or authentication method, with
 * the rules of its creation (the contract's checks, and https only in production). A public
 * client made confidential gets a new secret, answered once; a confidential one made public
 * loses its secret. A disabled client is changed where it is kept and stays disabled. Every
 * instance's provider takes the change within about a second.
 */
export async function updateClient(
  deps: AdminDeps,
  code: string,
  clientId: string,
  patch: z.infer<typeof adminClientUpdateRequest>,
) {
  const row = await tenantRow(deps.db, code);
  let secret: string | null = null;
  const changed = await withTenantLease(deps.db, code, () =>
    deps.db.transaction().execute(async (trx) => {
      let table: 'oidc_clients' | 'disabled_clients' = 'oidc_clients';
      let stored = await trx
        .selectFrom('oidc_clients')
        .select('metadata')
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!stored) {
        table = 'disabled_clients';
        stored = await trx
          .selectFrom('disabled_clients')
          .select('metadata')
          .where('tenant_code', '=', code)
          .where('client_id', '=', clientId)
          .executeTakeFirst();
      }
      if (!stored) throw new AppError(adminErrors.clientNotFound);
      const current = JSON.parse(stored.metadata) as ClientMetadata;
      const before = clientOf(current, table === 'disabled_clients');
      const next = {
        redirectUris: patch.redirectUris ?? before.redirectUris,
        postLogoutRedirectUris: patch.postLogoutRedirectUris ?? before.postLogoutRedirectUris,
        grantTypes: patch.grantTypes ?? before.grantTypes.filter((type) => type !== 'client_credentials'),
        authMethod: patch.authMethod ?? before.authMethod,
      };
      if (next.grantTypes.includes('authorization_code') && next.redirectUris.length === 0) {
        throw new AppError(errorCodes.validationFailed, {
          fields: { redirectUris: 'a client that signs people in needs a redirect URI' },
        });
      }
      // The login client signs the tenant's people in: it keeps the authorization code grant.
      if (row.login_client_id === clientId && !next.grantTypes.includes('authorization_code')) {
        throw new AppError(errorCodes.validationFailed, {
          fields: { grantTypes: "the tenant's login client keeps authorization_code" },
        });
      }
      assertProductionRedirects(deps.config, next);
      const metadata: ClientMetadata = {
        ...current,
        redirect_uris: next.redirectUris,
        post_logout_redirect_uris: next.postLogoutRedirectUris,
        grant_types: [
          ...next.grantTypes,
          ...(before.grantTypes.includes('client_credentials') ? ['client_credentials'] : []),
        ],
        response_types: next.grantTypes.includes('authorization_code') ? ['code'] : [],
        token_endpoint_auth_method: next.authMethod,
      };
      if (patch.name === null) delete metadata.client_name;
      else if (patch.name !== undefined) metadata.client_name = patch.name;
      if (next.authMethod === 'none') {
        delete metadata.client_secret;
      } else if (before.authMethod === 'none') {
        secret = newSecret();
        metadata.client_secret = hashClientSecret(secret);
      }
      const after = clientOf(metadata, table === 'disabled_clients');
      if (JSON.stringify(after) === JSON.stringify(before) && secret === null) return after;
      const updated = await trx
        .updateTable(table)
        .set({ metadata: JSON.stringify(metadata) })
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .where('metadata', '=', stored.metadata)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError(errorCodes.busy);
      await raiseTenantVersion(trx, code);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: code,
          action: 'client.update',
          target: { kind: 'client', id: clientId },
          before,
          after: secret ? { ...after, secret } : after,
        },
        deps.now,
      );
      return after;
    }),
  );
  deps.tenants.invalidate(code);
  return { client: changed, secret };
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
