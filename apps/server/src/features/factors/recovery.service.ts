import { randomUUID } from 'node:crypto';
import { recoveryCodeCount } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { keyedHash, keyedHashes, normaliseRecoveryCode, randomRecoveryCode } from './mfa-crypto.ts';

const label = 'mfa-recovery-code';

/**
 * Ten new single-use recovery codes; the user's earlier ones stop working. Only keyed hashes
 * are stored, so the codes exist in clear exactly once: in this answer. Call inside the
 * transaction that activates the factor, so a factor never exists without its codes.
 */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  key: Buffer,
  input: { tenantCode: string; userId: string },
  now: number,
): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, randomRecoveryCode);
  await db
    .deleteFrom('mfa_recovery_codes')
    .where('user_id', '=', input.userId)
    .where('tenant_code', '=', input.tenantCode)
    .execute();
  await db
    .insertInto('mfa_recovery_codes')
    .values(
      codes.map((code) => ({
        id: randomUUID(),
        tenant_code: input.tenantCode,
        user_id: input.userId,
        code_hash: keyedHash(key, label, normaliseRecoveryCode(code)),
        created_at: now,
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

/** Uses up one recovery code: a conditional UPDATE, so a code works once even when raced. */
export async function redeemRecoveryCode(
  db: Kysely<Database>,
  key: Buffer,
  input: { tenantCode: string; userId: string; code: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', input.userId)
    .where('tenant_code', '=', input.tenantCode)
    .where('code_hash', 'in', keyedHashes(key, label, normaliseRecoveryCode(input.code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countRecoveryCodes(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('tenant_code', '=', tenantCode)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
