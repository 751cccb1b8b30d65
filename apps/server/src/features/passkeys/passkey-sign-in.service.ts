import { type PasskeyAssertion, type PasskeyRequestOptions, passkeyErrors } from '@keycard/contract';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { recordActivity, sendSecurityMail, type UserRow } from '../accounts/index.ts';
import type { LoginCodeData } from '../login/index.ts';
import {
  countKnownBrowsers,
  findKnownBrowserId,
  type MfaMethod,
  recordMfaPassed,
} from '../sessions/index.ts';
import { loadAccount, recentSignInMs, type SignIn } from '../sign-in/index.ts';
import {
  challengeTtlMs,
  consumeChallenge,
  findCredential,
  issueChallenge,
  listCredentials,
} from './passkey.repository.ts';
import {
  accountCeremonyRule,
  addressCeremonyRule,
  assertOffered,
  bindingOf,
  challengeOf,
  methodOf,
  type PasskeyDeps,
  type PasskeyHost,
  refuse,
  reserveCeremony,
  storedTransports,
  verifyAssertion,
} from './passkey-ceremony.ts';

/**
 * What a passkey sign-in's code carries to /api/authenticate: a login code's data, with the
 * passkey kind. No password was used: `passwordAt` is the assertion's time (auth_time).
 */
export interface PasskeyCodeData extends LoginCodeData {
  passkey: MfaMethod;
}

/** A passkey sign-in's code is redeemed within a minute, once, as a password's is. */
const signInCodeTtlMs = 60_000;

/**
 * POST apiPaths.passkeys.signInOptions: a challenge for a discoverable-credential sign-in on
 * this host (empty allowCredentials: the browser offers the passkeys it holds for the domain,
 * by autofill or by the button), user verification required.
 */
export async function passkeySignInOptions(
  deps: PasskeyDeps,
  host: PasskeyHost,
  now: number,
): Promise<PasskeyRequestOptions> {
  assertOffered(host.tenant);
  await reserveCeremony(
    deps.limiter,
    limitKeys.passkeyAddress(host.tenant.code, host.ip),
    addressCeremonyRule(deps.config),
    now,
  );
  const challenge = await issueChallenge(deps.db, bindingOf(host, 'sign-in', null), now);
  return {
    challenge,
    rpId: host.rpId,
    timeout: challengeTtlMs,
    userVerification: 'required',
    allowCredentials: [],
  };
}

/**
 * POST apiPaths.passkeys.signIn: the assertion of a passkey sign-in. Its challenge must be one
 * this browser was given on this host for a sign-in, unused and unexpired (used up here, once);
 * the passkey is found by tenant, domain and credential id; the user handle it returns must be
 * its account's; the account must be active; the signature, origin, RP ID, user verification
 * and counter must verify. Answers a single-use code for /api/authenticate, as the password
 * step does; the session it opens has passed MFA with the passkey (phishing-resistant).
 */
export async function signInWithPasskey(
  deps: PasskeyDeps,
  host: PasskeyHost,
  input: {
    credential: PasskeyAssertion;
    state: string;
    iid?: string | undefined;
    knownBrowserToken?: string | undefined;
  },
  now: number,
): Promise<{ code: string }> {
  const { db } = deps;
  const { tenant } = host;
  assertOffered(tenant);
  await reserveCeremony(
    deps.limiter,
    limitKeys.passkeyAddress(tenant.code, host.ip),
    addressCeremonyRule(deps.config),
    now,
  );
  const { credential } = input;
  const challenge = challengeOf(credential.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(db, challenge, bindingOf(host, 'sign-in', null), now))) {
    throw new AppError(passkeyErrors.challengeInvalid);
  }
  const row = await findCredential(db, {
    tenantCode: tenant.code,
    rpId: host.rpId,
    credentialId: credential.id,
  });
  // No passkey of this tenant on this domain has this id (removed, or never made here): said
  // as such, after the challenge was spent, so the portal can tell the authenticator to drop
  // it (WebAuthn L3 Signal API). It names no account; a stored passkey failing any check below
  // still answers the one code, so an authenticator is never told to drop a valid passkey.
  if (!row) return refuse(deps, host, 'unknown_credential', undefined, now, passkeyErrors.unknownCredential);
  // The handle the authenticator keeps with the passkey must be its account's: a passkey is
  // never accepted for another account than the one it was made for.
  if (!row.handle || credential.response.userHandle !== row.handle) {
    return refuse(deps, host, 'user_handle_mismatch', row, now);
  }
  const account = await loadAccount(db, tenant, row.user_id);
  if (!account) return refuse(deps, host, 'account_inactive', row, now);
  await verifyAssertion(deps, host, row, { credential, challenge, requireUserVerification: true }, now);

  const browserId = input.knownBrowserToken
    ? await findKnownBrowserId(
        db,
        { tenantCode: tenant.code, userId: row.user_id, token: input.knownBrowserToken },
        now,
      )
    : null;
  const data: PasskeyCodeData = {
    state: input.state,
    iid: input.iid ?? null,
    passwordAt: now,
    passwordChangedAt: account.user.password_changed_at,
    knownBrowser: browserId !== null && browserId !== undefined,
    passkey: methodOf(row),
  };
  deps.log.info({ tenant: tenant.code, user: row.user_id, passkey: row.id }, 'passkey sign-in');
  // The code, the activity entry and a new-browser mail commit together, as after a password
  // (login.service.ts): no crash leaves a sign-in its owner was not told of.
  const { code, mailed } = await db.transaction().execute(async (trx) => {
    const mailed = await noteSignIn({ ...deps, db: trx }, host, account.user, data.knownBrowser, now);
    const code = await issueToken(
      trx,
      { tenantCode: tenant.code, userId: row.user_id, purpose: 'LOGIN_CODE', ttlMs: signInCodeTtlMs, data },
      now,
    );
    return { code, mailed };
  });
  if (mailed) void deps.outbox.kick().catch(() => undefined);
  return { code };
}

/**
 * POST apiPaths.passkeys.verifyOptions: a challenge to pass MFA (or the account page's
 * recent-sign-in check, or an app's phishing-resistant step-up) with one of the signed-in
 * account's passkeys or security keys on this domain. User verification preferred: a security
 * key without a PIN works as a second factor.
 */
export async function passkeyVerifyOptions(
  deps: PasskeyDeps,
  host: PasskeyHost,
  signIn: Pick<SignIn, 'session' | 'user'>,
  now: number,
): Promise<PasskeyRequestOptions> {
  assertOffered(host.tenant);
  await reserveCeremony(
    deps.limiter,
    limitKeys.passkeyAccount(host.tenant.code, signIn.user.id),
    accountCeremonyRule,
    now,
  );
  const passkeys = await listCredentials(deps.db, host.tenant.code, signIn.user.id, host.rpId);
  if (passkeys.length === 0) throw new AppError(passkeyErrors.notFound);
  const challenge = await issueChallenge(
    deps.db,
    bindingOf(host, 'verify', { sessionId: signIn.session.id, userId: signIn.user.id }),
    now,
  );
  return {
    challenge,
    rpId: host.rpId,
    timeout: challengeTtlMs,
    userVerification: 'preferred',
    allowCredentials: passkeys.map((row) => ({
      id: row.credential_id,
      type: 'public-key' as const,
      transports: storedTransports(row),
    })),
  };
}

/**
 * POST apiPaths.passkeys.verify: the assertion that passes MFA for this session with a passkey
 * or security key of its own account (recordMfaPassed, passkey-hwk or passkey-swk). Its
 * challenge must be this session's, in this browser, on this host.
 */
export async function verifyWithPasskey(
  deps: PasskeyDeps,
  host: PasskeyHost,
  signIn: Pick<SignIn, 'session' | 'user'>,
  credential: PasskeyAssertion,
  now: number,
): Promise<MfaMethod> {
  const { db } = deps;
  const { tenant } = host;
  assertOffered(tenant);
  await reserveCeremony(
    deps.limiter,
    limitKeys.passkeyAccount(tenant.code, signIn.user.id),
    accountCeremonyRule,
    now,
  );
  const challenge = challengeOf(credential.response.clientDataJSON);
  const binding = bindingOf(host, 'verify', { sessionId: signIn.session.id, userId: signIn.user.id });
  if (!challenge || !(await consumeChallenge(db, challenge, binding, now))) {
    throw new AppError(passkeyErrors.challengeInvalid);
  }
  const row = await findCredential(db, {
    tenantCode: tenant.code,
    rpId: host.rpId,
    credentialId: credential.id,
  });
  if (!row) return refuse(deps, host, 'unknown_credential', undefined, now);
  if (row.user_id !== signIn.user.id) return refuse(deps, host, 'other_account', row, now);
  const { userHandle } = credential.response;
  if (userHandle !== undefined && userHandle !== '' && userHandle !== row.handle) {
    return refuse(deps, host, 'user_handle_mismatch', row, now);
  }
  const { userVerified } = await verifyAssertion(
    deps,
    host,
    row,
    { credential, challenge, requireUserVerification: false },
    now,
  );
  if (!userVerified && !followsPassword(signIn.session, now)) {
    return refuse(deps, host, 'user_not_verified', row, now);
  }
  const method = methodOf(row);
  await recordMfaPassed(db, signIn.session, method, now);
  return method;
}

/**
 * Whether a key touched without user verification (no PIN, no fingerprint: possession only)
 * may count: as the second step of a session still owing it, or after the password proven
 * within the recent-sign-in window (the account page's "confirm it's you", a step-up just
 * after a sign-in). Later, on its own, it would pass for a recent sign-in
 * (sign-in/recent-sign-in.ts counts a passkey check alone): anyone at an unattended computer
 * with the key plugged in could add their own passkey or sign the owner out everywhere.
 */
function followsPassword(
  session: Pick<SignIn['session'], 'provider' | 'created_at' | 'mfa_verified_at' | 'reauthenticated_at'>,
  now: number,
): boolean {
  if (session.mfa_verified_at === null) return true;
  const passwordAt = Math.max(
    session.provider === 'keycard' ? Number(session.created_at) : 0,
    Number(session.reauthenticated_at ?? 0),
  );
  return passwordAt > now - recentSignInMs;
}

/**
 * The passkey sign-in in the account's recent activity; where the tenant turned it on, a
 * browser the account never signed in from gets its owner a mail, as after a password
 * (login.service.ts noteSignIn). The first browser of an account is not news. Answers whether
 * it queued a mail.
 */
async function noteSignIn(
  deps: PasskeyDeps,
  host: PasskeyHost,
  user: UserRow,
  knownBrowser: boolean,
  now: number,
): Promise<boolean> {
  const { db, config } = deps;
  const { tenant } = host;
  const seen = { userAgent: host.userAgent ?? null, ip: host.ip };
  await recordActivity(
    db,
    { tenantCode: tenant.code, userId: user.id, kind: 'sign-in', ...seen, detail: { method: 'passkey' } },
    now,
  );
  if (knownBrowser || !tenant.settings.securityMail.newBrowserSignIn) return false;
  if ((await countKnownBrowsers(db, tenant.code, user.id, now)) === 0) return false;
  await sendSecurityMail(db, config, { tenant, user, event: 'new-browser-sign-in', ...seen }, now);
  return true;
}
