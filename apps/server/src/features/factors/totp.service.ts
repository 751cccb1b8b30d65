import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Database } from '../../platform/db/schema.ts';
import { decrypt, encrypt } from '../../platform/shared/crypto.ts';
import type { FactorRow } from './mfa.schema.ts';

/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
export const totpPeriodSeconds = 30;

/** A registration not confirmed within this time must be started again. */
export const pendingRegistrationTtlMs = 30 * 60_000;

export interface TotpRegistration {
  secret: string;
  otpauthUri: string;
  qrCode: string;
  issuer: string;
  account: string;
}

/**
 * Starts authenticator-app registration: a new 160-bit secret, sealed (AES-256-GCM) in a
 * pending factor that replaces any earlier pending one. The otpauth URI names the tenant's
 * theme as issuer and the e-mail as account; its QR code is an SVG rendered here, so the page
 * needs no network call and the secret never leaves Keycard.
 */
export async function startTotpRegistration(
  db: Kysely<Database>,
  key: Buffer,
  input: { tenantCode: string; userId: string; issuer: string; account: string },
  now: number,
): Promise<TotpRegistration> {
  const secret = generateSecret();
  const otpauthUri = generateURI({ issuer: input.issuer, label: input.account, secret });
  const svg = await QRCode.toString(otpauthUri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('mfa_factors')
      .where('user_id', '=', input.userId)
      .where('tenant_code', '=', input.tenantCode)
      .where('status', '=', 'pending')
      .execute();
    await trx
      .insertInto('mfa_factors')
      .values({
        id: randomUUID(),
        tenant_code: input.tenantCode,
        user_id: input.userId,
        type: 'totp',
        status: 'pending',
        secret_sealed: encrypt(key, secret),
        phone: null,
        last_step: null,
        created_at: now,
        confirmed_at: null,
        last_used_at: null,
      })
      .execute();
  });
  return {
    secret,
    otpauthUri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    issuer: input.issuer,
    account: input.account,
  };
}

export type TotpCheck = 'ok' | 'invalid' | 'replayed';

/**
 * Checks a code against the factor's secret at `now`, one time step either side (RFC 6238
 * §5.2 allows for clock drift and the time the user needs to type). A code is accepted once:
 * the matched step must be later than the last accepted one, and it is recorded by a
 * conditional UPDATE, so of two concurrent uses — on one instance or several — only one wins.
 */
export async function checkTotp(
  db: Kysely<Database>,
  key: Buffer,
  factor: FactorRow,
  token: string,
  now: number,
): Promise<TotpCheck> {
  if (!factor.secret_sealed) return 'invalid';
  const secret = decrypt(key, factor.secret_sealed);
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now / 1000),
    epochTolerance: totpPeriodSeconds,
  });
  // otplib's result type also covers HOTP; a valid TOTP result carries its time step.
  if (!result.valid || !('timeStep' in result)) return 'invalid';
  const step = result.timeStep;
  const updated = await db
    .updateTable('mfa_factors')
    .set({ last_step: step, last_used_at: now })
    .where('id', '=', factor.id)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? 'ok' : 'replayed';
}
