import { randomUUID } from 'node:crypto';
import {
  accountErrors,
  errorCodes,
  type PasskeyAttestation,
  type PasskeyCreationOptions,
  type PasskeySummary,
  passkeyErrors,
} from '@keycard/contract';
import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { lockAccount, recordActivity, sendSecurityMail } from '../accounts/index.ts';
import { effectiveMfaMode, findActiveFactor } from '../factors/index.ts';
import { recordMfaPassed } from '../sessions/index.ts';
import { isRecentSignIn, type SignIn } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import {
  challengeTtlMs,
  consumeChallenge,
  countCredentials,
  findUserHandle,
  issueChallenge,
  listCredentials,
  userHandleOf,
} from './passkey.repository.ts';
import type { PasskeyRow } from './passkey.schema.ts';
import {
  accountCeremonyRule,
  assertOffered,
  bindingOf,
  challengeOf,
  knownTransports,
  type PasskeyDeps,
  type PasskeyHost,
  passkeyLimit,
  reserveCeremony,
  storedTransports,
} from './passkey-ceremony.ts';
import { defaultPasskeyName } from './passkey-names.ts';

/** COSE algorithms accepted for a new passkey: EdDSA, ES256, RS256 (the ones authenticators make). */
const algorithms = [-8, -7, -257];

/** A complete session that proved itself within five minutes (sign-in/recent-sign-in.ts). */
function assertRecent(signIn: SignIn, now: number): void {
  if (!signIn.complete) throw new AppError(errorCodes.sessionIncomplete);
  if (!isRecentSignIn(signIn.session, signIn.mfaEnrolled, now)) {
    throw new AppError(accountErrors.recentSignInRequired);
  }
}

/**
 * Both steps of making a passkey: the tenant offers passkeys, the session is a recent sign-in,
 * and the account's ceremony limit lets one more through.
 */
async function admitRegistration(
  deps: PasskeyDeps,
  tenant: PasskeyHost['tenant'],
  signIn: SignIn,
  now: number,
): Promise<void> {
  assertOffered(tenant);
  assertRecent(signIn, now);
  await reserveCeremony(
    deps.limiter,
    limitKeys.passkeyAccount(tenant.code, signIn.user.id),
    accountCeremonyRule,
    now,
  );
}

/**
 * POST apiPaths.passkeys.registrationOptions: a challenge to create a passkey for the signed-in
 * account on this host (its RP ID). The user handle is the account's random one; the account's
 * passkeys on this domain are excluded, so an authenticator holding one makes no second.
 * Discoverable credential and user verification required.
 */
export async function passkeyRegistrationOptions(
  deps: PasskeyDeps,
  host: PasskeyHost,
  signIn: SignIn,
  now: number,
): Promise<PasskeyCreationOptions> {
  const { db } = deps;
  const { tenant } = host;
  await admitRegistration(deps, tenant, signIn, now);
  if ((await countCredentials(db, tenant.code, signIn.user.id)) >= passkeyLimit) {
    throw new AppError(passkeyErrors.limitReached);
  }
  const handle = await userHandleOf(db, tenant.code, signIn.user.id);
  const existing = await listCredentials(db, tenant.code, signIn.user.id, host.rpId);
  const challenge = await issueChallenge(
    db,
    bindingOf(host, 'register', { sessionId: signIn.session.id, userId: signIn.user.id }),
    now,
  );
  return {
    challenge,
    rp: { id: host.rpId, name: tenant.theme.name },
    user: { id: handle, name: signIn.user.email, displayName: signIn.user.email },
    pubKeyCredParams: algorithms.map((alg) => ({ alg, type: 'public-key' as const })),
    timeout: challengeTtlMs,
    attestation: 'none',
    excludeCredentials: existing.map((row) => ({
      id: row.credential_id,
      type: 'public-key' as const,
      transports: storedTransports(row),
    })),
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
    extensions: { credProps: true },
    hints: [],
  };
}

/**
 * POST apiPaths.passkeys.register: verifies the new passkey's attestation (challenge of this
 * session and browser on this host, origin, RP ID hash, user verification, algorithm) and
 * stores it bound to this domain, named after its provider (or kind) unless named here.
 */
export async function registerPasskey(
  deps: PasskeyDeps,
  host: PasskeyHost,
  signIn: SignIn,
  input: { credential: PasskeyAttestation; name?: string | undefined },
  now: number,
): Promise<PasskeySummary> {
  const { db } = deps;
  const { tenant } = host;
  await admitRegistration(deps, tenant, signIn, now);
  const { credential } = input;
  const challenge = challengeOf(credential.response.clientDataJSON);
  const binding = bindingOf(host, 'register', { sessionId: signIn.session.id, userId: signIn.user.id });
  if (!challenge || !(await consumeChallenge(db, challenge, binding, now))) {
    throw new AppError(passkeyErrors.challengeInvalid);
  }
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response: { ...credential, clientExtensionResults: credential.clientExtensionResults ?? {} },
      expectedChallenge: challenge,
      expectedOrigin: host.origin,
      expectedRPID: host.rpId,
      expectedType: 'webauthn.create',
      requireUserVerification: true,
      supportedAlgorithmIDs: algorithms,
    });
    info = verified.registrationInfo;
  } catch (error) {
    deps.log.warn(
      { tenant: tenant.code, user: signIn.user.id, err: error instanceof Error ? error.message : undefined },
      'passkey attestation refused',
    );
    info = undefined;
  }
  if (!info) throw new AppError(passkeyErrors.verificationFailed);

  const synced = info.credentialDeviceType === 'multiDevice';
  const row: PasskeyRow = {
    id: randomUUID(),
    tenant_code: tenant.code,
    user_id: signIn.user.id,
    credential_id: info.credential.id,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: JSON.stringify(knownTransports(credential.response.transports)),
    rp_id: host.rpId,
    aaguid: info.aaguid,
    backup_eligible: synced ? 1 : 0,
    backed_up: info.credentialBackedUp ? 1 : 0,
    name:
      input.name ??
      defaultPasskeyName(
        info.aaguid,
        { synced, crossPlatform: credential.authenticatorAttachment === 'cross-platform' },
        now,
      ),
    created_at: now,
    last_used_at: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      // Counted again inside the insert's transaction, with the account's row held: two
      // creations racing past the options' count do not both get past the limit (the unique
      // credential id catches the same key).
      await lockAccount(trx, tenant.code, signIn.user.id);
      if ((await countCredentials(trx, tenant.code, signIn.user.id)) >= passkeyLimit) {
        throw new AppError(passkeyErrors.limitReached);
      }
      await trx.insertInto('passkey_credentials').values(row).execute();
      // The account may now be enrolled in MFA by this passkey: the session that just made it
      // (with user verification) has passed MFA with it, as confirming a new factor does. Not
      // as a passkey sign-in, though: the session was opened with a phishable password (and
      // code), so it must not meet acr_values=phr by registering an authenticator of its own.
      if (signIn.session.mfa_verified_at === null) {
        await recordMfaPassed(trx, signIn.session, 'passkey-new', now);
      }
      await auditPasskey(trx, tenant, 'passkey.added', row, now);
      await tellOwner(trx, deps, host, signIn, { event: 'passkey-added', name: row.name }, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(passkeyErrors.alreadyRegistered);
    throw error;
  }
  deps.log.info({ tenant: tenant.code, user: signIn.user.id, passkey: row.id }, 'passkey added');
  void deps.outbox.kick().catch(() => undefined);
  return summaryOf(row, host.rpId);
}

export function summaryOf(row: PasskeyRow, rpId: string): PasskeySummary {
  const synced = Number(row.backup_eligible) === 1;
  return {
    id: row.id,
    credentialId: row.credential_id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    synced,
    deviceBound: !synced,
    transports: storedTransports(row),
    rpId: row.rp_id,
    usableHere: row.rp_id === rpId,
  };
}

/**
 * GET apiPaths.passkeys.list: every passkey of the account on every domain, oldest first, and
 * its user handle (read, never made here). Complete by design — no paging, no cap below the
 * account's limit: the portal hands this domain's ids to `signalAllAcceptedCredentials`, and
 * an authenticator drops every passkey of the handle missing from that list.
 */
export async function listPasskeys(
  db: Kysely<Database>,
  host: Pick<PasskeyHost, 'tenant' | 'rpId'>,
  signIn: Pick<SignIn, 'user'>,
): Promise<{ passkeys: PasskeySummary[]; userHandle: string | null }> {
  const [rows, handle] = await Promise.all([
    listCredentials(db, host.tenant.code, signIn.user.id),
    findUserHandle(db, host.tenant.code, signIn.user.id),
  ]);
  return { passkeys: rows.map((row) => summaryOf(row, host.rpId)), userHandle: handle ?? null };
}

/** PATCH apiPaths.passkeys.item(id): a new name (naming is not sensitive: no recent sign-in). */
export async function renamePasskey(
  db: Kysely<Database>,
  host: Pick<PasskeyHost, 'tenant' | 'rpId'>,
  signIn: Pick<SignIn, 'user'>,
  input: { id: string; name: string },
): Promise<PasskeySummary> {
  const row = await db
    .updateTable('passkey_credentials')
    .set({ name: input.name })
    .where('id', '=', input.id)
    .where('tenant_code', '=', host.tenant.code)
    .where('user_id', '=', signIn.user.id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError(passkeyErrors.notFound);
  return summaryOf(row, host.rpId);
}

/**
 * DELETE apiPaths.passkeys.item(id): removes one of the account's passkeys after a recent
 * sign-in. It signs in nowhere from then on (a ceremony in flight with it fails). Refused when
 * it is the account's last factor and the tenant requires MFA (account.factor_required).
 */
export async function removePasskey(
  deps: Pick<PasskeyDeps, 'db' | 'log' | 'config' | 'outbox'>,
  host: Pick<PasskeyHost, 'tenant' | 'ip' | 'userAgent'>,
  signIn: SignIn,
  id: string,
  now: number,
): Promise<PasskeyRow> {
  const { db } = deps;
  const { tenant } = host;
  assertRecent(signIn, now);
  const removed = await db.transaction().execute(async (trx) => {
    await lockAccount(trx, tenant.code, signIn.user.id);
    const row = await trx
      .selectFrom('passkey_credentials')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_code', '=', tenant.code)
      .where('user_id', '=', signIn.user.id)
      .executeTakeFirst();
    if (!row) throw new AppError(passkeyErrors.notFound);
    if (effectiveMfaMode(tenant, now) === 'required') {
      const others = (await countCredentials(trx, tenant.code, signIn.user.id)) - 1;
      const factor = await findActiveFactor(trx, tenant.code, signIn.user.id);
      if (others === 0 && !factor) throw new AppError(accountErrors.factorRequired);
    }
    const result = await trx
      .deleteFrom('passkey_credentials')
      .where('id', '=', row.id)
      .where('tenant_code', '=', tenant.code)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new AppError(passkeyErrors.notFound);
    await auditPasskey(trx, tenant, 'passkey.removed', row, now);
    await tellOwner(trx, deps, host, signIn, { event: 'passkey-removed', name: row.name }, now);
    return row;
  });
  deps.log.info({ tenant: tenant.code, user: signIn.user.id, passkey: removed.id }, 'passkey removed');
  void deps.outbox.kick().catch(() => undefined);
  return removed;
}

/**
 * The account's owner hears of every passkey added or removed: a security mail (in the
 * change's transaction, so the mail exists if and only if the change does) and an entry of
 * the recent activity.
 */
async function tellOwner(
  trx: Kysely<Database>,
  deps: Pick<PasskeyDeps, 'config'>,
  host: Pick<PasskeyHost, 'tenant' | 'ip' | 'userAgent'>,
  signIn: Pick<SignIn, 'user'>,
  change: { event: 'passkey-added' | 'passkey-removed'; name: string },
  now: number,
): Promise<void> {
  const { tenant } = host;
  await recordActivity(
    trx,
    {
      tenantCode: tenant.code,
      userId: signIn.user.id,
      kind: change.event,
      userAgent: host.userAgent ?? null,
      ip: host.ip,
      detail: { name: change.name },
    },
    now,
  );
  await sendSecurityMail(
    trx,
    deps.config,
    {
      tenant,
      user: signIn.user,
      event: change.event,
      userAgent: host.userAgent,
      ip: host.ip,
      name: change.name,
    },
    now,
  );
}

async function auditPasskey(
  trx: Kysely<Database>,
  tenant: TenantContext,
  action: 'passkey.added' | 'passkey.removed',
  row: PasskeyRow,
  now: number,
): Promise<void> {
  await recordAudit(
    trx,
    systemActor,
    {
      tenant: tenant.code,
      action,
      target: { kind: 'user', id: row.user_id },
      after: { passkey: row.id, name: row.name, rpId: row.rp_id, synced: Number(row.backup_eligible) === 1 },
    },
    now,
  );
}
