import {
  accountAuditActions,
  accountErrors,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  errorCodes,
  type ReauthenticateResponse,
} from '@keycard/contract';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import { changePassword } from '../accounts/index.ts';
import { checkAccountPassword } from '../login/index.ts';
import { findKnownBrowserId } from '../sessions/index.ts';
import type { SignIn } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import {
  type AccountCaller,
  assertAccountSession,
  assertRecentSignIn,
  recentSignInOf,
  type SelfServiceDeps,
} from './access.ts';

/** The account's password proven again, counted against its lockout; throws what the page shows. */
async function provePassword(
  deps: SelfServiceDeps,
  tenant: TenantContext,
  signIn: SignIn,
  password: string,
  now: number,
): Promise<void> {
  const proof = await checkAccountPassword(
    { limiter: deps.limiter, policy: deps.config.login, clock: deps.clock },
    tenant,
    signIn.user,
    password,
    now,
  );
  if (proof.ok) return;
  if (proof.code === errorCodes.tooManyAttempts) {
    throw new AppError(errorCodes.tooManyAttempts, { fields: retryAfter(proof.retryAfterMs) });
  }
  throw new AppError(accountErrors.currentPasswordInvalid);
}

/**
 * POST /api/account/password: the current password and a new one. Also open to a session whose
 * password has expired (the expired and will-expire pages change it in place, no mail round
 * trip) — but like every sensitive change it needs a recent sign-in, and the current password is
 * asked again all the same: a browser left open must not be enough to take the account over.
 */
export async function changeAccountPassword(
  deps: SelfServiceDeps,
  caller: AccountCaller & { knownBrowserToken?: string | undefined },
  body: ChangePasswordRequest,
  now: number,
): Promise<ChangePasswordResponse> {
  const { tenant, signIn } = caller;
  assertAccountSession(signIn, { allowExpiredPassword: true });
  assertRecentSignIn(signIn, now);
  await provePassword(deps, tenant, signIn, body.currentPassword, now);
  const knownBrowserId = caller.knownBrowserToken
    ? await findKnownBrowserId(
        deps.db,
        { tenantCode: tenant.code, userId: signIn.user.id, token: caller.knownBrowserToken },
        now,
      )
    : null;
  const result = await changePassword(
    deps.db,
    deps.config,
    tenant,
    signIn.user,
    {
      newPassword: body.newPassword,
      keepSessionId: signIn.session.id,
      keepBrowserId: knownBrowserId,
      userAgent: caller.userAgent,
      ip: caller.ip,
    },
    now,
  );
  await recordAudit(
    deps.db,
    systemActor,
    {
      tenant: tenant.code,
      action: accountAuditActions.passwordChanged,
      target: { kind: 'user', id: signIn.user.id },
      after: { endedSessions: result.endedSessions },
    },
    now,
  );
  return result;
}

/**
 * POST /api/account/reauthenticate: "confirm it is you" with the password. The session records
 * when (reauthenticated_at); with a factor enrolled the page then asks for it through the MFA
 * verify calls (or a passkey), and only both together make the sign-in recent again.
 */
export async function reauthenticate(
  deps: SelfServiceDeps,
  caller: AccountCaller,
  password: string,
  now: number,
): Promise<ReauthenticateResponse> {
  const { tenant, signIn } = caller;
  assertAccountSession(signIn, { allowExpiredPassword: true });
  if (!signIn.user.password_hash) throw new AppError(accountErrors.currentPasswordInvalid);
  await provePassword(deps, tenant, signIn, password, now);
  await deps.db
    .updateTable('sessions')
    .set({ reauthenticated_at: now })
    .where('id', '=', signIn.session.id)
    .where('tenant_code', '=', tenant.code)
    .execute();
  const proven: SignIn = { ...signIn, session: { ...signIn.session, reauthenticated_at: now } };
  const recentSignIn = recentSignInOf(proven, now);
  return { recentSignIn, factorRequired: !recentSignIn.recent };
}
