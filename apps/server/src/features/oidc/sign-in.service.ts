import { errorCodes, passkeyErrors, paths } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError, assertThat } from '../../platform/shared/errors.ts';
import { redeemToken } from '../../platform/shared/one-time-token.ts';
import { deviceIdForApps } from '../factors/index.ts';
import type { LoginCodeData } from '../login/index.ts';
import { applyTrustedDevice } from '../mfa/index.ts';
import type { PasskeyCodeData } from '../passkeys/index.ts';
import { createSession, recordMfaPassed, rememberBrowser, revokeSession } from '../sessions/index.ts';
import {
  acrOf,
  amrOf,
  isPasskeyMethod,
  loadAccount,
  meetsAcrValues,
  type SignIn,
  signInOf,
} from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { resolveRedirect } from '../tenants/index.ts';
import {
  abortInteraction,
  type BrowserExchange,
  clientNameOf,
  earliestAcceptedAuthentication,
  finishInteraction,
  interactionOfBrowser,
} from './interaction.service.ts';
import type { ProviderRegistry } from './provider-registry.ts';

/**
 * POST /api/authenticate: redeems the single-use login code of the password step (one atomic
 * statement) and opens a fresh session, in one transaction: a code is never used up without
 * its session. A code whose password has changed since it was checked opens nothing. Any
 * session the browser held before is revoked (session fixation defence). On a device the user
 * trusted within the period, MFA is passed for the new session (SPEC §9). A browser signing
 * in to the account for the first time becomes known to it (its lockout is its own).
 */
export async function completeSignIn(
  db: Kysely<Database>,
  tenant: TenantContext,
  input: {
    code: string;
    tenantCode: string;
    userDeviceToken?: string | undefined;
    previousToken?: string | undefined;
  },
  now: number,
): Promise<{ token: string; signIn: SignIn; knownBrowserToken: string | null }> {
  const invalid = new AppError(errorCodes.codeInvalid);
  if (input.tenantCode !== tenant.code) throw invalid;
  const opened = await db.transaction().execute(async (trx) => {
    const redeemed = await redeemToken(
      trx,
      { tenantCode: tenant.code, purpose: 'LOGIN_CODE', token: input.code },
      now,
    );
    if (!redeemed.ok || !redeemed.userId) return null;
    const data = redeemed.data as LoginCodeData & Partial<Pick<PasskeyCodeData, 'passkey'>>;
    const account = await loadAccount(trx, tenant, redeemed.userId);
    if (!account || account.user.password_changed_at !== data.passwordChangedAt) return null;
    if (input.previousToken) await revokeSession(trx, tenant.code, input.previousToken);
    // The session's creation is its password (or passkey) step: auth_time, and the start of
    // its 30 days. A passkey sign-in used no password and is MFA by itself (issue 18).
    const created = await createSession(
      trx,
      {
        tenantCode: tenant.code,
        userId: account.user.id,
        provider: data.passkey ? 'passkey' : 'keycard',
        interactionUid: data.iid,
      },
      data.passwordAt,
    );
    if (data.passkey) {
      await recordMfaPassed(trx, created.session, data.passkey, data.passwordAt);
      created.session.mfa_method = data.passkey;
      created.session.mfa_verified_at = data.passwordAt;
    }
    const knownBrowserToken = data.knownBrowser
      ? null
      : await rememberBrowser(trx, { tenantCode: tenant.code, userId: account.user.id }, now);
    return { ...account, ...created, knownBrowserToken };
  });
  if (!opened) throw invalid;
  const { token, session, user, mfaEnrolled, knownBrowserToken } = opened;
  if (
    session.mfa_verified_at === null &&
    mfaEnrolled &&
    (await applyTrustedDevice(db, tenant, session, input.userDeviceToken, now))
  ) {
    session.mfa_method = 'device';
    session.mfa_verified_at = now;
  }
  // The state (SPEC §4) is decided as for every later request (sign-in-state.ts).
  return { token, signIn: signInOf(tenant, session, user, mfaEnrolled, now), knownBrowserToken };
}

/** Every sign-in step done, or the coded reason why not. */
export function assertComplete(signIn: SignIn | null): asserts signIn is SignIn {
  if (!signIn) throw new AppError(errorCodes.sessionRequired);
  if (!signIn.complete) throw new AppError(errorCodes.sessionIncomplete);
}

/**
 * POST /api/authorize: hands a complete session to an app. With the provider's pending
 * interaction of this browser (its cookie; `iid`, the page's, must name the same one):
 * finishes it, unless the app asked for a fresher sign-in than this session's password step
 * (prompt=login, max_age), in which case the password is asked again. Without one: the
 * redirect, if registered for the tenant (invariant 2), with the device token.
 */
export async function authorizeSession(
  deps: { providers: ProviderRegistry },
  tenant: TenantContext,
  signIn: SignIn | null,
  input: { iid?: string | undefined; redirectUri?: string | undefined; userDeviceToken?: string | undefined },
  browser: BrowserExchange,
  ownOrigin: string,
): Promise<{ location: string }> {
  assertComplete(signIn);
  if (input.iid) {
    const { provider } = await deps.providers.get(tenant);
    const interaction = await interactionOfBrowser(provider, browser, input.iid);
    // An app asking for a phishing-resistant sign-in (acr_values phr, phrh) gets one: a
    // session without a passkey is asked for one (the verify ceremony), never a password.
    assertThat(
      meetsAcrValues(signIn.session, stringParam(interaction.params.acr_values)),
      passkeyErrors.stepUpRequired,
    );
    // The session's password step is when it was created: a new session on every password.
    // A password entered for this very request is fresh, however fast it came; any other
    // must be younger than the request asks. A passkey check since (a step-up, or the
    // passkey sign-in itself) is a fresh authentication too.
    const authTime = authTimeOf(signIn.session);
    const earliest = earliestAcceptedAuthentication(interaction);
    const madeForThisRequest = signIn.session.interaction_uid === interaction.uid;
    assertThat(
      earliest === null || madeForThisRequest || authTime >= earliest,
      errorCodes.reauthenticationRequired,
    );
    const location = await finishInteraction(provider, browser, interaction, {
      accountId: signIn.user.id,
      amr: amrOf(signIn.session),
      acr: acrOf(signIn.session),
      authTime,
    });
    return { location };
  }
  if (!input.redirectUri && !tenant.defaultRedirectUri) {
    // No app asked and the tenant names none: its "You are signed in" page, on the domain the
    // session lives on. The device token is for apps; the portal's own page goes without it.
    return { location: new URL(paths.signedIn, ownOrigin).href };
  }
  const target = input.redirectUri
    ? resolveRedirect(tenant, ownOrigin, input.redirectUri)
    : tenant.defaultRedirectUri;
  assertThat(target, errorCodes.redirectNotAllowed);
  const url = new URL(target);
  if (input.userDeviceToken)
    url.searchParams.set('user-device-token', deviceIdForApps(input.userDeviceToken));
  return { location: url.href };
}

/** When the session last authenticated: its password step, or a passkey check since. */
function authTimeOf(session: SignIn['session']): number {
  const passkeyAt = isPasskeyMethod(session.mfa_method) ? (session.mfa_verified_at ?? 0) : 0;
  return Math.max(session.created_at, passkeyAt);
}

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * GET /api/authorize/interaction: what the login page shows of this browser's pending app
 * request (the app's name, for "Back to <app>"). Only the browser holding the interaction's
 * cookie learns it.
 */
export async function describeInteraction(
  deps: { providers: ProviderRegistry },
  tenant: TenantContext,
  iid: string,
  browser: BrowserExchange,
): Promise<{ iid: string; clientName: string }> {
  const { provider } = await deps.providers.get(tenant);
  const interaction = await interactionOfBrowser(provider, browser, iid);
  return { iid: interaction.uid, clientName: await clientNameOf(provider, interaction) };
}

/**
 * POST /api/authorize/abort: the user goes back to the app without signing in. The provider
 * ends this browser's pending request with `access_denied` (OpenID Connect Core §3.1.2.6);
 * answers its resume URL, from which it redirects to the app's registered redirect URI. No
 * session is needed: declining is always allowed, and reveals nothing.
 */
export async function abortAuthorization(
  deps: { providers: ProviderRegistry },
  tenant: TenantContext,
  iid: string,
  browser: BrowserExchange,
): Promise<{ location: string }> {
  const { provider } = await deps.providers.get(tenant);
  await interactionOfBrowser(provider, browser, iid);
  return { location: await abortInteraction(provider, browser) };
}

/** POST /api/logout: ends the session (the cookie's, or the token given) on this tenant. */
export async function endSignIn(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string | undefined,
): Promise<void> {
  if (token) await revokeSession(db, tenant.code, token);
}
