import { randomUUID } from 'node:crypto';
import type { Locale, UserType } from '@keycard/contract';
import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import type { AccountStatus, Database, UsersTable } from '../../platform/db/schema.ts';
import { hashPassword } from './password.service.ts';

export type UserRow = Selectable<UsersTable>;

export function findUserByEmail(db: Kysely<Database>, tenantCode: string, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('email', '=', email)
    .executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, tenantCode: string, id: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface NewUser {
  tenantCode: string;
  email: string;
  type: UserType;
  locale: Locale;
  status: AccountStatus;
  password?: string;
  emailVerified?: boolean;
  emailVerificationRequired?: boolean;
}

export async function createUser(db: Kysely<Database>, input: NewUser, now = Date.now()): Promise<UserRow> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const row: UserRow = {
    id: randomUUID(),
    tenant_code: input.tenantCode,
    email: input.email,
    type: input.type,
    locale: input.locale,
    status: input.status,
    password_hash: passwordHash,
    password_changed_at: passwordHash ? now : null,
    email_verified: input.emailVerified ? 1 : 0,
    email_verification_required: input.emailVerificationRequired ? 1 : 0,
    secret_question: null,
    secret_answer_hash: null,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(row).execute();
    if (passwordHash) {
      await trx
        .insertInto('password_history')
        .values({ id: randomUUID(), user_id: row.id, password_hash: passwordHash, created_at: now })
        .execute();
    }
  });
  return row;
}

/**
 * Stores a stronger hash of the same password (made at sign-in), unless the password changed
 * meanwhile. Not a password change: its date and history stay.
 */
export async function upgradePasswordHash(
  db: Kysely<Database>,
  user: UserRow,
  passwordHash: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', user.id)
    .where('tenant_code', '=', user.tenant_code)
    .where('password_hash', '=', user.password_hash)
    .execute();
}

/**
 * Holds the account's row until the transaction ends (PostgreSQL; SQLite runs one writer at a
 * time anyway): changes to an account's sign-in methods that check what it has before they
 * act (removing its last factor or passkey, adding a passkey under the limit) take it first,
 * so two at once cannot both act on what the other is changing.
 */
export async function lockAccount(trx: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  let query = trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('tenant_code', '=', tenantCode);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  await query.executeTakeFirst();
}
