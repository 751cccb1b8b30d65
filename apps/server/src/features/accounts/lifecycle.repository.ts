import { randomUUID } from 'node:crypto';
import type { Locale, UserType } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { UserRow } from './user.repository.ts';

/** Inserts a user row inside the caller's transaction (createUser opens its own). */
export async function insertUser(
  trx: Kysely<Database>,
  input: {
    tenantCode: string;
    email: string;
    type: UserType;
    locale: Locale;
    status: 'pending' | 'active';
    passwordHash?: string | null;
    secretQuestion?: string | null;
    secretAnswerHash?: string | null;
    emailVerified: boolean;
    emailVerificationRequired: boolean;
  },
  now: number,
): Promise<UserRow> {
  const row: UserRow = {
    id: randomUUID(),
    tenant_code: input.tenantCode,
    email: input.email,
    type: input.type,
    locale: input.locale,
    status: input.status,
    password_hash: input.passwordHash ?? null,
    password_changed_at: input.passwordHash ? now : null,
    email_verified: input.emailVerified ? 1 : 0,
    email_verification_required: input.emailVerificationRequired ? 1 : 0,
    secret_question: input.secretQuestion ?? null,
    secret_answer_hash: input.secretAnswerHash ?? null,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('users').values(row).execute();
  return row;
}
