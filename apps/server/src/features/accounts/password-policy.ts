import { randomUUID } from 'node:crypto';
import { lifecycleErrors, passwordRules } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { isLeakedPassword, verifyPassword } from './password.service.ts';
import type { UserRow } from './user.repository.ts';

/** The hashes a new password must differ from: the current one and the last four set (SPEC §9). */
async function recentPasswordHashes(db: Kysely<Database>, user: UserRow): Promise<string[]> {
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('user_id', '=', user.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(passwordRules.history)
    .execute();
  const hashes = rows.map((row) => row.password_hash);
  if (user.password_hash && !hashes.includes(user.password_hash)) hashes.unshift(user.password_hash);
  return hashes;
}

/**
 * Server-side rules for a password being set (the format is checked by the contract schema):
 * not on the leaked-password list, and not one of the user's last four passwords. History
 * hashes are argon2id with their own salts, so each one is verified, never compared.
 */
export async function assertPasswordAllowed(
  db: Kysely<Database>,
  user: UserRow | null,
  password: string,
): Promise<void> {
  if (await isLeakedPassword(password)) {
    throw new AppError(lifecycleErrors.passwordLeaked);
  }
  if (!user) return;
  for (const hash of await recentPasswordHashes(db, user)) {
    if (await verifyPassword(hash, password)) {
      throw new AppError(lifecycleErrors.passwordHistory);
    }
  }
}

/** Records a newly set password in the history, keeping only as many as the rule needs. */
export async function recordPasswordHistory(
  trx: Kysely<Database>,
  userId: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await trx
    .insertInto('password_history')
    .values({ id: randomUUID(), user_id: userId, password_hash: passwordHash, created_at: now })
    .execute();
  const older = await trx
    .selectFrom('password_history')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(passwordRules.history)
    .limit(1000)
    .execute();
  if (older.length > 0) {
    await trx
      .deleteFrom('password_history')
      .where(
        'id',
        'in',
        older.map((row) => row.id),
      )
      .execute();
  }
}

/** Secret answers are compared forgivingly: case, surrounding and repeated spaces do not count. */
export function normalizeSecretAnswer(answer: string): string {
  return answer.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
