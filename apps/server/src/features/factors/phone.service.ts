import { randomUUID, timingSafeEqual } from 'node:crypto';
import {
  errorCodes,
  type Locale,
  type MfaErrorCode,
  mfaCodeLength,
  mfaErrors,
  type PhoneCodeSentResponse,
  type PhoneDeliveryResponse,
  type PhoneDeliveryType,
  phoneCodeResendSeconds,
} from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { enqueueMessage, messageStatus } from '../../platform/messaging/outbox.ts';
import type { OutboxWorker } from '../../platform/messaging/outbox.worker.ts';
import {
  type PhoneMessageContent,
  parseDeliveryFailure,
  phoneFailureKinds,
} from '../../platform/messaging/phone/phone-provider.ts';
import { callFailureOf, isValidTwilioSignature } from '../../platform/messaging/phone/twilio.provider.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { UserRow } from '../accounts/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { mfaError } from './mfa.errors.ts';
import type { FactorRow } from './mfa.schema.ts';
import { keyedHash, keyedHashes, randomDigits } from './mfa-crypto.ts';
import { maskPhone } from './phone-number.ts';

/** A phone code lives 10 minutes and allows 5 guesses; then a new one must be requested. */
export const phoneCodeTtlMs = 10 * 60_000;
export const phoneCodeMaxAttempts = 5;
const resendIntervalMs = phoneCodeResendSeconds * 1000;
const HOUR = 60 * 60_000;

/**
 * Quotas against SMS pumping and toll fraud (attackers making us text premium ranges or
 * flood a number): per number across every tenant, per user, and per tenant.
 */
export const phoneQuotas = { perNumberHour: 5, perNumberDay: 10, perUserHour: 10 } as const;

const codeLabel = 'mfa-phone-code';

export interface PhoneDeps {
  db: Kysely<Database>;
  key: Buffer;
  limiter: RateLimiter;
  outbox: Pick<OutboxWorker, 'deliverNow'>;
  phoneCodesPerTenantHour: number;
  /** Where the provider reports a call's final status, when it supports that. */
  callStatusUrl?: ((tenant: TenantContext, codeId: string) => string) | undefined;
}

/** Starts phone registration: a pending factor for the checked number, replacing other pending ones. */
export async function createPendingPhoneFactor(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; phone: string; channel: PhoneDeliveryType },
  now: number,
): Promise<FactorRow> {
  const row: FactorRow = {
    id: randomUUID(),
    tenant_code: input.tenantCode,
    user_id: input.userId,
    type: input.channel,
    status: 'pending',
    secret_sealed: null,
    phone: input.phone,
    last_step: null,
    created_at: now,
    confirmed_at: null,
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('mfa_factors')
      .where('user_id', '=', input.userId)
      .where('tenant_code', '=', input.tenantCode)
      .where('status', '=', 'pending')
      .execute();
    await trx.insertInto('mfa_factors').values(row).execute();
  });
  return row;
}

const voiceLanguages: Record<Locale, string> = {
  en: 'en-GB',
  de: 'de-DE',
  es: 'es-ES',
  fr: 'fr-FR',
  id: 'id-ID',
  it: 'it-IT',
  pt: 'pt-PT',
  th: 'th-TH',
};

async function renderMessage(
  tenant: TenantContext,
  language: string,
  channel: PhoneDeliveryType,
  code: string,
): Promise<{ text: string; language: string }> {
  const locale = (language in voiceLanguages ? language : 'en') as Locale;
  const texts = await loadTexts(locale);
  if (channel === 'voice') {
    // Digits one by one, so the voice reads "four, two, …" and not "four hundred twenty…".
    const digits = code.split('').join(', ');
    return {
      text: format(texts.mfa.messages.voice, { name: tenant.theme.name, digits }),
      language: voiceLanguages[locale],
    };
  }
  const text = format(texts.mfa.messages.sms, {
    code,
    name: tenant.theme.name,
    minutes: phoneCodeTtlMs / 60_000,
  });
  // WebOTP (origin-bound one-time codes): browsers may offer the code for this origin only.
  return { text: `${text}\n\n@${tenant.loginDomain} #${code}`, language: voiceLanguages[locale] };
}

async function assertMaySend(
  deps: PhoneDeps,
  tenant: TenantContext,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  const { db, limiter } = deps;
  // The resend interval the portal's countdown shows, enforced here: exact, from the last code…
  const last = await db
    .selectFrom('mfa_phone_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('tenant_code', '=', tenant.code)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (last && now - last.created_at < resendIntervalMs) {
    throw mfaError(mfaErrors.resendTooSoon, { retryAfterMs: last.created_at + resendIntervalMs - now });
  }
  // …and against two concurrent requests, a shared counter (no two sends in one interval).
  const burst = await limiter.reserve(
    limitKeys.mfaSend(tenant.code, userId),
    { limit: 1, windowMs: resendIntervalMs, lockMs: 0 },
    now,
  );
  if (!burst.allowed) throw mfaError(mfaErrors.resendTooSoon, { retryAfterMs: burst.retryAfterMs });

  const quotas = [
    [limitKeys.phoneHour(phone), phoneQuotas.perNumberHour, HOUR],
    [limitKeys.phoneDay(phone), phoneQuotas.perNumberDay, DAY],
    [limitKeys.phoneUserHour(tenant.code, userId), phoneQuotas.perUserHour, HOUR],
    [limitKeys.phoneTenantHour(tenant.code), deps.phoneCodesPerTenantHour, HOUR],
  ] as const;
  for (const [key, limit, windowMs] of quotas) {
    const result = await limiter.reserve(key, { limit, windowMs, lockMs: 0 }, now);
    if (!result.allowed) throw mfaError(mfaErrors.rateLimited, { retryAfterMs: result.retryAfterMs });
  }
}

/** SPEC §8 MFA messages for a stored delivery failure (`<kind>:<provider code>`). */
export function deliveryFailureCode(failure: string | null): MfaErrorCode {
  switch (parseDeliveryFailure(failure).kind) {
    case phoneFailureKinds.invalidNumber:
      return mfaErrors.phoneRejected;
    case phoneFailureKinds.blocked:
      return mfaErrors.phoneBlocked;
    case phoneFailureKinds.undeliverable:
      return mfaErrors.deliveryFailed;
    case phoneFailureKinds.unavailable:
    case phoneFailureKinds.rateLimited:
    case phoneFailureKinds.expired:
      return mfaErrors.deliveryRetryable;
    case phoneFailureKinds.busy:
      return mfaErrors.lineBusy;
    default:
      return mfaErrors.telecomError;
  }
}

export function deliveryFailureError(failure: string | null): AppError {
  return mfaError(deliveryFailureCode(failure), { providerCode: parseDeliveryFailure(failure).providerCode });
}

/**
 * Sends a new 6-digit code to the factor's phone by SMS or voice. Checks the resend interval
 * and the quotas first; stores only a keyed hash of the code; commits the code and the
 * outbox message in one transaction (invariant 7); then waits briefly for the provider, so
 * SPEC §8's delivery errors reach the user on this very request.
 */
export async function sendPhoneCode(
  deps: PhoneDeps,
  input: {
    tenant: TenantContext;
    user: UserRow;
    factor: FactorRow;
    channel: PhoneDeliveryType;
    /** The language the person asked in (the page's): the text or call uses it over the account's. */
    asked?: Locale | undefined;
  },
  now: number,
): Promise<PhoneCodeSentResponse> {
  const { tenant, user, factor, channel } = input;
  const phone = factor.phone;
  if (!phone) throw mfaError(mfaErrors.notEnrolled);
  await assertMaySend(deps, tenant, user.id, phone, now);

  const code = randomDigits(mfaCodeLength);
  const codeId = randomUUID();
  const expiresAt = now + phoneCodeTtlMs;
  const message = await renderMessage(tenant, input.asked ?? user.locale, channel, code);
  const content: PhoneMessageContent = { ...message, expiresAt };
  if (channel === 'voice' && deps.callStatusUrl)
    content.statusCallbackUrl = deps.callStatusUrl(tenant, codeId);

  const outboxId = await deps.db.transaction().execute(async (trx) => {
    // Codes older than a day serve nothing (not even the resend interval): drop them.
    await trx
      .deleteFrom('mfa_phone_codes')
      .where('user_id', '=', user.id)
      .where('created_at', '<', now - DAY)
      .execute();
    // Only the newest code counts: earlier ones stop working when a new one is sent.
    await trx
      .updateTable('mfa_phone_codes')
      .set({ consumed_at: now })
      .where('user_id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .where('consumed_at', 'is', null)
      .execute();
    const id = await enqueueMessage(
      trx,
      { tenantCode: tenant.code, channel, recipient: phone, template: `mfa-code-${channel}`, content },
      now,
    );
    await trx
      .insertInto('mfa_phone_codes')
      .values({
        id: codeId,
        tenant_code: tenant.code,
        user_id: user.id,
        factor_id: factor.id,
        channel,
        code_hash: keyedHash(deps.key, codeLabel, `${codeId}:${code}`),
        attempts: 0,
        outbox_id: id,
        delivery_error: null,
        created_at: now,
        expires_at: expiresAt,
        consumed_at: null,
      })
      .execute();
    return id;
  });

  // The first attempt is made here, so a refused number is reported on this very request; a
  // retryable failure stays in the outbox and is retried like any other message.
  const outcome = await deps.outbox.deliverNow(outboxId);
  if (outcome.status === 'failed') {
    // A refused number must not hold the user back by the resend interval: forget the code.
    if (!outcome.retryable) {
      await deps.db.deleteFrom('mfa_phone_codes').where('id', '=', codeId).execute();
      await deps.limiter.clear(limitKeys.mfaSend(tenant.code, user.id));
    }
    throw deliveryFailureError(outcome.error);
  }
  return {
    deliveryType: channel,
    phone: maskPhone(phone),
    resendInSeconds: phoneCodeResendSeconds,
    expiresInSeconds: phoneCodeTtlMs / 1000,
    delivery: outcome.status,
  };
}

export type PhoneCodeCheck = 'ok' | 'invalid' | 'expired' | 'attempts_exceeded';

/**
 * Checks a code against the newest one sent for the factor. Each guess is counted by an
 * atomic UPDATE before the comparison, so parallel guesses cannot exceed the limit; a right
 * code is consumed by a conditional UPDATE, so it works once.
 */
export async function checkPhoneCode(
  db: Kysely<Database>,
  key: Buffer,
  input: { tenantCode: string; userId: string; factorId: string; code: string },
  now: number,
): Promise<PhoneCodeCheck> {
  const latest = await db
    .selectFrom('mfa_phone_codes')
    .selectAll()
    .where('user_id', '=', input.userId)
    .where('tenant_code', '=', input.tenantCode)
    .where('factor_id', '=', input.factorId)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!latest || latest.expires_at <= now) return 'expired';
  const counted = await db
    .updateTable('mfa_phone_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', latest.id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', phoneCodeMaxAttempts)
    .returning('attempts')
    .executeTakeFirst();
  if (!counted) return 'attempts_exceeded';
  const expected = Buffer.from(latest.code_hash);
  // Every key of the ring: a code sent just before ENCRYPTION_KEY was rotated still counts.
  const matches = keyedHashes(key, codeLabel, `${latest.id}:${input.code}`).map((hash) => {
    const given = Buffer.from(hash);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (matches.includes(true)) {
    const consumed = await db
      .updateTable('mfa_phone_codes')
      .set({ consumed_at: now })
      .where('id', '=', latest.id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(consumed.numUpdatedRows) === 1 ? 'ok' : 'invalid';
  }
  return Number(counted.attempts) >= phoneCodeMaxAttempts ? 'attempts_exceeded' : 'invalid';
}

/** The newest code's delivery, including failures the provider reported later (a busy line). */
export async function latestDelivery(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<PhoneDeliveryResponse> {
  const latest = await db
    .selectFrom('mfa_phone_codes')
    .select(['outbox_id', 'delivery_error'])
    .where('user_id', '=', userId)
    .where('tenant_code', '=', tenantCode)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!latest) return { delivery: 'none', error: null };
  const failure = latest.delivery_error ?? null;
  const row = latest.outbox_id ? await messageStatus(db, latest.outbox_id) : undefined;
  const failed = failure ?? (row?.status === 'failed' ? row.last_error : null);
  if (failed) {
    return {
      delivery: 'failed',
      error: { code: deliveryFailureCode(failed), providerCode: parseDeliveryFailure(failed).providerCode },
    };
  }
  return { delivery: row?.status === 'sent' ? 'sent' : 'pending', error: null };
}

/** Records a failure the provider reported after accepting the message (e.g. a busy line). */
export async function recordDeliveryFailure(
  db: Kysely<Database>,
  input: { tenantCode: string; codeId: string; failure: string },
): Promise<boolean> {
  const result = await db
    .updateTable('mfa_phone_codes')
    .set({ delivery_error: input.failure })
    .where('id', '=', input.codeId)
    .where('tenant_code', '=', input.tenantCode)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Twilio's call status callback: checks the request's signature against the account's auth
 * token, then records a busy line or an unanswered call on the code, where the portal learns
 * of it (GET /api/mfa/delivery). A request Twilio did not sign is refused and changes nothing.
 */
export async function recordCallStatus(
  db: Kysely<Database>,
  tenant: TenantContext,
  input: {
    authToken: string;
    url: string;
    params: Record<string, string>;
    signature: string | undefined;
    codeId: string;
  },
): Promise<void> {
  if (!isValidTwilioSignature(input.authToken, input.url, input.params, input.signature)) {
    throw new AppError(errorCodes.signatureInvalid);
  }
  const failure = callFailureOf(String(input.params.CallStatus ?? ''));
  if (failure && input.codeId.length <= 36) {
    await recordDeliveryFailure(db, {
      tenantCode: tenant.code,
      codeId: input.codeId,
      failure: `${failure.kind}:${failure.code}`,
    });
  }
}
