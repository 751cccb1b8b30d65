import { type Locale, lifecycleErrors, type SecretQuestion, type UserType } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import {
  consumeUserTokens,
  peekToken,
  type RedeemResult,
  redeemToken,
} from '../../platform/shared/one-time-token.ts';
import type { TenantContext } from '../tenants/index.ts';
import { claimAccount } from './account-claim.ts';
import type { LifecycleDeps, RegistrationGrant } from './invitation.service.ts';
import { insertUser } from './lifecycle.repository.ts';
import { hashPassword } from './password.service.ts';
import { assertPasswordAllowed, normalizeSecretAnswer, recordPasswordHistory } from './password-policy.ts';
import { findUserByEmail, findUserById, type UserRow } from './user.repository.ts';

/** SPEC §8: an unknown, used or superseded link is TokenInvalid (409); an old one TokenExpired (410). */
function activationTokenError(reason: 'not_found' | 'expired' | 'consumed'): AppError {
  return reason === 'expired'
    ? new AppError(lifecycleErrors.activateTokenExpired)
    : new AppError(lifecycleErrors.activateTokenInvalid);
}

/** The pending account an activation link belongs to (the link is not used up). */
export async function checkActivationToken(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string,
  now: number,
): Promise<UserRow> {
  const found = await peekToken(db, { tenantCode: tenant.code, purpose: 'ACTIVATE', token }, now);
  if (!found.ok) throw activationTokenError(found.reason);
  const user = found.userId ? await findUserById(db, tenant.code, found.userId) : undefined;
  if (user?.status !== 'pending') throw activationTokenError('consumed');
  return user;
}

export interface NewCredentials {
  token: string;
  password: string;
  secretQuestion: SecretQuestion;
  secretAnswer: string;
}

/**
 * Activation: sets the password and the secret question of a pending account and makes it
 * active. The expensive hashing happens before the transaction; inside it, the link is
 * redeemed atomically, so a replayed or concurrent submission cannot activate twice. Opening
 * the mailed link proves the address, so the e-mail counts as verified, and the account is
 * claimed: partner links its owner never confirmed are removed (account-claim.ts).
 */
export async function activateAccount(
  deps: LifecycleDeps,
  tenant: TenantContext,
  input: NewCredentials,
  now: number,
): Promise<{ email: string }> {
  const user = await checkActivationToken(deps.db, tenant, input.token, now);
  await assertPasswordAllowed(deps.db, user, input.password);
  const passwordHash = await hashPassword(input.password);
  const answerHash = await hashPassword(normalizeSecretAnswer(input.secretAnswer));
  await deps.db.transaction().execute(async (trx) => {
    const redeemed = await redeemToken(
      trx,
      { tenantCode: tenant.code, purpose: 'ACTIVATE', token: input.token },
      now,
    );
    if (!redeemed.ok) throw activationTokenError(redeemed.reason);
    if (redeemed.userId !== user.id) throw activationTokenError('consumed');
    const updated = await trx
      .updateTable('users')
      .set({
        status: 'active',
        password_hash: passwordHash,
        password_changed_at: now,
        secret_question: input.secretQuestion,
        secret_answer_hash: answerHash,
        email_verified: 1,
        updated_at: now,
      })
      .where('id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw activationTokenError('consumed');
    await recordPasswordHistory(trx, user.id, passwordHash, now);
    await consumeUserTokens(trx, { tenantCode: tenant.code, userId: user.id, purpose: 'ACTIVATE' }, now);
    await claimAccount(trx, deps.config, tenant, user, now);
  });
  return { email: user.email };
}

const registrationInvalid = () => new AppError(lifecycleErrors.registerTokenInvalid);

function grantOf(result: RedeemResult): RegistrationGrant {
  if (!result.ok) throw registrationInvalid();
  const data = result.data as Partial<RegistrationGrant> | null;
  if (!data?.email || !data.type || !data.locale) throw registrationInvalid();
  return { email: data.email, type: data.type as UserType, locale: data.locale as Locale };
}

/** SPEC §7: a registration link that is unknown, used, expired or already spent answers 403. */
export async function checkRegistrationToken(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string,
  now: number,
): Promise<RegistrationGrant> {
  const grant = grantOf(await peekToken(db, { tenantCode: tenant.code, purpose: 'REGISTER', token }, now));
  if (await findUserByEmail(db, tenant.code, grant.email)) {
    throw new AppError(lifecycleErrors.registerAccountExists);
  }
  return grant;
}

/**
 * Registration: creates the active account of the link's e-mail address with the chosen
 * password and secret question. The address is not proven by a registration link (it may be
 * handed out by other means), so tenants that require verification will ask for it.
 */
export async function registerAccount(
  deps: LifecycleDeps,
  tenant: TenantContext,
  input: NewCredentials,
  now: number,
): Promise<{ email: string }> {
  const grant = await checkRegistrationToken(deps.db, tenant, input.token, now);
  await assertPasswordAllowed(deps.db, null, input.password);
  const passwordHash = await hashPassword(input.password);
  const answerHash = await hashPassword(normalizeSecretAnswer(input.secretAnswer));
  try {
    await deps.db.transaction().execute(async (trx) => {
      const redeemed = grantOf(
        await redeemToken(trx, { tenantCode: tenant.code, purpose: 'REGISTER', token: input.token }, now),
      );
      const user = await insertUser(
        trx,
        {
          tenantCode: tenant.code,
          email: redeemed.email,
          type: redeemed.type,
          locale: redeemed.locale,
          status: 'active',
          passwordHash,
          secretQuestion: input.secretQuestion,
          secretAnswerHash: answerHash,
          emailVerified: false,
          emailVerificationRequired: tenant.settings.emailVerificationRequired,
        },
        now,
      );
      await recordPasswordHistory(trx, user.id, passwordHash, now);
    });
  } catch (error) {
    // Two links for one address used at once: the unique (tenant, e-mail) key lets one win.
    if (!(error instanceof AppError) && (await findUserByEmail(deps.db, tenant.code, grant.email))) {
      throw new AppError(lifecycleErrors.registerAccountExists);
    }
    throw error;
  }
  return { email: grant.email };
}
