import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { adminErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type AuditActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { encrypt } from '../../platform/shared/crypto.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { raiseTenantVersion } from '../tenants/index.ts';

/**
 * Signing-key rotation (docs/admin-api.md#signing-keys). A tenant's provider signs with its
 * newest key and publishes all of them in its JWKS, so a rotation adds a key (new tokens are
 * signed with it at once, on every instance, once the tenant's version is seen) while tokens
 * signed before still verify; the older key is retired once those tokens have expired.
 * Private parts never leave the database, where they are sealed with ENCRYPTION_KEY.
 */

export interface SigningKeyInfo {
  kid: string;
  createdAt: number;
  /** The key new tokens are signed with (the newest). */
  active: boolean;
}

export async function listSigningKeys(db: Kysely<Database>, tenantCode: string): Promise<SigningKeyInfo[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['kid', 'created_at'])
    .where('tenant_code', '=', tenantCode)
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
  return rows.map((row, index) => ({ kid: row.kid, createdAt: Number(row.created_at), active: index === 0 }));
}

export async function rotateSigningKey(
  deps: { db: Kysely<Database>; encryptionKey: Buffer; actor: AuditActor; now: number },
  tenantCode: string,
): Promise<SigningKeyInfo[]> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = {
    ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kty: 'RSA',
    kid,
    alg: 'RS256',
    use: 'sig',
  };
  await deps.db.transaction().execute(async (trx) => {
    // Newer than every key there, even one written by a clock a little ahead.
    const newest = await trx
      .selectFrom('signing_keys')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('tenant_code', '=', tenantCode)
      .executeTakeFirst();
    const createdAt = Math.max(deps.now, Number(newest?.at ?? 0) + 1);
    await trx
      .insertInto('signing_keys')
      .values({
        tenant_code: tenantCode,
        kid,
        sealed_jwk: encrypt(deps.encryptionKey, JSON.stringify(jwk)),
        created_at: createdAt,
      })
      .execute();
    await raiseTenantVersion(trx, tenantCode);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: tenantCode,
        action: 'signing_key.rotate',
        target: { kind: 'signing_key', id: kid },
        after: { kid },
      },
      deps.now,
    );
  });
  return listSigningKeys(deps.db, tenantCode);
}

/** Stops publishing an older key: tokens it signed no longer verify. The active key stays. */
export async function retireSigningKey(
  deps: { db: Kysely<Database>; actor: AuditActor; now: number },
  tenantCode: string,
  kid: string,
): Promise<SigningKeyInfo[]> {
  await deps.db.transaction().execute(async (trx) => {
    const keys = await listSigningKeys(trx, tenantCode);
    const key = keys.find((each) => each.kid === kid);
    if (!key) throw new AppError(adminErrors.signingKeyNotFound);
    if (key.active) throw new AppError(adminErrors.signingKeyActive);
    await trx
      .deleteFrom('signing_keys')
      .where('tenant_code', '=', tenantCode)
      .where('kid', '=', kid)
      .execute();
    await raiseTenantVersion(trx, tenantCode);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: tenantCode,
        action: 'signing_key.retire',
        target: { kind: 'signing_key', id: kid },
        before: { kid },
      },
      deps.now,
    );
  });
  return listSigningKeys(deps.db, tenantCode);
}
