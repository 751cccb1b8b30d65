import {
  canonicalEmail,
  errorCodes,
  type Locale,
  lifecycleErrors,
  lifecycleTokenTtl,
  paths,
  type UserType,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { consumeUserTokens, issueToken } from '../../platform/shared/one-time-token.ts';
import type { TenantContext } from '../tenants/index.ts';
import { isAllowedRedirect } from '../tenants/index.ts';
import { queueAccountMail } from './account-mail.ts';
import { insertUser } from './lifecycle.repository.ts';
import { findUserByEmail, type UserRow } from './user.repository.ts';

export interface LifecycleDeps {
  db: Kysely<Database>;
  config: Config;
}

export const activationTtlMs = lifecycleTokenTtl.activationDays * DAY;

/**
 * Issues a fresh activation link for a pending user and queues its mail, in one transaction
 * (invariant 7). Older activation links of the user stop working: only the newest mail counts.
 */
export async function queueActivation(
  trx: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  user: Pick<UserRow, 'id' | 'email' | 'locale'>,
  now: number,
): Promise<string> {
  await consumeUserTokens(trx, { tenantCode: tenant.code, userId: user.id, purpose: 'ACTIVATE' }, now);
  const token = await issueToken(
    trx,
    { tenantCode: tenant.code, userId: user.id, purpose: 'ACTIVATE', ttlMs: activationTtlMs },
    now,
  );
  return queueAccountMail(trx, config, tenant, { kind: 'activation', token, user }, now);
}

export interface InviteInput {
  email: string;
  type: UserType;
  locale: Locale;
}

/**
 * The operator's invitation: creates the pending account and queues its activation mail.
 * Inviting a still-pending address again sends a new link (the old one stops working); an
 * account that is already active or disabled is refused.
 */
export async function inviteUser(
  deps: LifecycleDeps,
  tenant: TenantContext,
  input: InviteInput,
  now: number,
  /** Runs in the invitation's transaction (the admin API's audit entry). */
  alongside?: (trx: Kysely<Database>, user: UserRow) => Promise<void>,
): Promise<{ user: UserRow; created: boolean; messageId: string }> {
  const email = canonicalEmail(input.email);
  if (email === undefined)
    throw new AppError(errorCodes.validationFailed, { fields: { email: 'invalid e-mail' } });
  return deps.db.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, tenant.code, email);
    if (existing && existing.status !== 'pending') {
      throw new AppError(lifecycleErrors.inviteAccountExists);
    }
    const user =
      existing ??
      (await insertUser(
        trx,
        {
          tenantCode: tenant.code,
          email,
          type: input.type,
          locale: input.locale,
          status: 'pending',
          emailVerified: false,
          emailVerificationRequired: tenant.settings.emailVerificationRequired,
        },
        now,
      ));
    const messageId = await queueActivation(trx, deps.config, tenant, user, now);
    await alongside?.(trx, user);
    return { user, created: !existing, messageId };
  });
}

export interface RegistrationGrant {
  email: string;
  type: UserType;
  locale: Locale;
}

/**
 * A registration link: single use, for one e-mail address, optionally continuing to a
 * redirect URI registered for the tenant. No account exists until it is used.
 */
export async function createRegistrationLink(
  deps: LifecycleDeps,
  tenant: TenantContext,
  input: RegistrationGrant & { redirectUri?: string | undefined; ttlDays?: number | undefined },
  now: number,
): Promise<{ link: string; expiresAt: number }> {
  const email = canonicalEmail(input.email);
  if (email === undefined)
    throw new AppError(errorCodes.validationFailed, { fields: { email: 'invalid e-mail' } });
  if (input.redirectUri && !isAllowedRedirect(tenant, input.redirectUri)) {
    throw new AppError(errorCodes.redirectNotAllowed);
  }
  if (await findUserByEmail(deps.db, tenant.code, email)) {
    throw new AppError(lifecycleErrors.registerAccountExists);
  }
  const ttlMs = (input.ttlDays ?? lifecycleTokenTtl.registrationDays) * DAY;
  const grant: RegistrationGrant = { email, type: input.type, locale: input.locale };
  const token = await issueToken(
    deps.db,
    { tenantCode: tenant.code, userId: null, purpose: 'REGISTER', ttlMs, data: grant },
    now,
  );
  const url = new URL(paths.register, `${publicOrigin(deps.config, tenant.loginDomain)}/`);
  if (input.redirectUri) url.searchParams.set('redirectUri', input.redirectUri);
  url.searchParams.set('token', token);
  url.searchParams.set('langCode', input.locale);
  return { link: url.href, expiresAt: now + ttlMs };
}
