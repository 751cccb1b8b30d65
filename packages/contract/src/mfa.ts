import { z } from 'zod';
import { locales, userStates, userTypes } from './user-state.ts';

/**
 * Multi-factor authentication contract (SPEC §2 MFA screens, §3 MFA fields, §7 /mfa calls,
 * §8 MFA messages). The portal imports the types and constants of this module only, never
 * zod at run time (type-only imports keep the MFA chunks small).
 */

/** SPEC §3 MFA delivery types; smmobile is the partner mobile app (docs/mobile-mfa.md). */
export const mfaDeliveryTypes = ['smmobile', 'voice', 'sms', 'totp'] as const;

/**
 * The factors a tenant offers unless its settings name others. Not the partner app: a new
 * tenant has no device app yet, and offering one would strand whoever chose it (issue 19 item
 * 12); a tenant lists smmobile in mfa.methods once its app is set up.
 */
export const defaultMfaMethods: readonly (typeof mfaDeliveryTypes)[number][] = ['totp', 'sms', 'voice'];
export type MfaDeliveryType = (typeof mfaDeliveryTypes)[number];
export const phoneDeliveryTypes = ['sms', 'voice'] as const;
export type PhoneDeliveryType = (typeof phoneDeliveryTypes)[number];

/** SPEC §5 / §9: one-time codes are exactly 6 digits. */
export const mfaCodeLength = 6;
export const mfaCodePattern = /^\d{6}$/;

/** Ten single-use recovery codes, shown once: 10 characters in two groups (`k7m2p-9qxw4`). */
export const recoveryCodeCount = 10;
export const recoveryCodePattern = /^[0-9a-z]{5}-?[0-9a-z]{5}$/i;

/** Seconds before another code may be sent to the same user: the portal's countdown. */
export const phoneCodeResendSeconds = 30;

/** The MFA error codes live with every other code (errors.ts); re-exported for MFA callers. */
export { type MfaErrorCode, mfaErrors } from './errors.ts';

import { type MfaErrorCode, mfaErrors } from './errors.ts';

const code = z.string().trim().regex(mfaCodePattern, 'exactly 6 digits');
const recoveryCode = z.string().trim().regex(recoveryCodePattern, 'recovery code format');

/**
 * A proof of possession: a code from the enrolled factor, a recovery code, or for the partner
 * mobile app a number challenge of this session approved on the device in the last minutes.
 */
export const mfaProof = z.union([
  z.object({ code, deliveryType: z.enum(['totp', 'sms', 'voice']) }).strict(),
  z.object({ recoveryCode }).strict(),
  z.object({ challengeId: z.string().min(1).max(64) }).strict(),
]);
export type MfaProof = z.infer<typeof mfaProof>;

/** GET /api/mfa/status — what the MFA screens need to know about the signed-in user. */
export const mfaStatusResponse = z.object({
  state: z.enum(userStates),
  userType: z.enum(userTypes),
  email: z.string(),
  /** Days left before MFA becomes mandatory (recommended policy with a date), else null. */
  mfaRequiredByRemainingInDays: z.number().int().nullable(),
  /** Registration may be skipped or postponed (SPEC §4). */
  canSkip: z.boolean(),
  trustedDeviceDays: z.number().int(),
  factor: z
    .object({
      deliveryType: z.enum(mfaDeliveryTypes),
      /** The enrolled phone, masked (`+49 •••• ••••89`); null for the other factors. */
      phone: z.string().nullable(),
      /** The primary device's name for smmobile; null for the other factors. */
      deviceName: z.string().nullable(),
    })
    .nullable(),
  /** The factors the tenant's policy offers, in the order the choice screen lists them. */
  methods: z.array(z.enum(mfaDeliveryTypes)),
  recoveryCodesRemaining: z.number().int(),
  /** The session passed a factor (not a trusted device) within the last few minutes. */
  freshVerification: z.boolean(),
  /** SMS and voice can be delivered (a provider is configured, or the local outbox). */
  phoneAvailable: z.boolean(),
  /**
   * The account has a passkey or security key made on this domain, and the tenant offers
   * passkeys: the MFA screen offers "use your passkey or security key" (apiPaths.passkeys.verify*).
   * Always answered by the server; optional for fixtures made before it.
   */
  passkeysHere: z.boolean().optional(),
  /**
   * The tenant's other domains where the account has a passkey (a passkey works only on the
   * domain it was made on): when none works here, the portal can say where one does.
   */
  passkeyDomainsElsewhere: z.array(z.string()).optional(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponse>;

/** POST /api/mfa/register-totp — starts authenticator-app registration. */
export const registerTotpRequest = z.object({}).strict();
export const registerTotpResponse = z.object({
  /** Base32 secret for manual entry. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The QR code of otpauthUri as an SVG data URL, rendered by the server (no network call). */
  qrCode: z.string(),
  issuer: z.string(),
  account: z.string(),
});
export type RegisterTotpResponse = z.infer<typeof registerTotpResponse>;

/** POST /api/mfa/register-phone — starts phone registration and sends the first code. */
export const registerPhoneRequest = z.object({
  /** Country calling code, with or without '+', e.g. '+49'. */
  countryCode: z.string().trim().max(8),
  phoneNumber: z.string().trim().min(1).max(32),
  deliveryType: z.enum(phoneDeliveryTypes),
  /** The page's language: the text or call is in it (over the account's), as for a mail. */
  langCode: z.enum(locales).optional(),
});
export type RegisterPhoneRequest = z.infer<typeof registerPhoneRequest>;

/** The answer to every request that sends a phone code. */
export const phoneCodeSentResponse = z.object({
  deliveryType: z.enum(phoneDeliveryTypes),
  phone: z.string(),
  /** Seconds until another code may be requested (the resend countdown). */
  resendInSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
  /** 'sent' when the provider accepted it; 'pending' while the outbox is still trying. */
  delivery: z.enum(['sent', 'pending']),
});
export type PhoneCodeSentResponse = z.infer<typeof phoneCodeSentResponse>;

/** POST /api/mfa/send-phone-code — resend by SMS or call back (registration or sign-in). */
export const sendPhoneCodeRequest = z.object({
  deliveryType: z.enum(phoneDeliveryTypes),
  /** The page's language: the text or call is in it (over the account's), as for a mail. */
  langCode: z.enum(locales).optional(),
});

/** GET /api/mfa/delivery — the latest code's delivery, for failures known only later (busy line). */
export const phoneDeliveryResponse = z.object({
  delivery: z.enum(['none', 'pending', 'sent', 'failed']),
  error: z
    .object({
      code: z.enum(Object.values(mfaErrors) as [MfaErrorCode, ...MfaErrorCode[]]),
      providerCode: z.string().nullable(),
    })
    .nullable(),
});
export type PhoneDeliveryResponse = z.infer<typeof phoneDeliveryResponse>;

/**
 * POST /api/mfa/verify — a 6-digit code (completes a pending registration, or passes MFA at
 * sign-in) or a recovery code (sign-in only).
 */
export const mfaVerifyRequest = mfaProof;
export const mfaVerifyResponse = z.object({
  state: z.enum(userStates),
  /** Shown once, at the end of a registration. */
  recoveryCodes: z.array(z.string()).nullable(),
  recoveryCodesRemaining: z.number().int(),
});
export type MfaVerifyResponse = z.infer<typeof mfaVerifyResponse>;

/** POST /api/mfa/user-device-tokens — SPEC §7 body {token}; the session cookie decides. */
export const deviceTokenRequest = z.object({ token: z.string().max(512).optional() });
export const deviceTokenResponse = z.object({
  userDeviceToken: z.string(),
  /** Epoch ms when the device stops being trusted (the tenant's trusted-device period). */
  trustedUntil: z.number(),
});
export type DeviceTokenResponse = z.infer<typeof deviceTokenResponse>;

/** POST /api/mfa/recovery-codes — new codes after a fresh MFA check; old ones stop working. */
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** POST /api/mfa/reset — removes factors, recovery codes and trusted devices after a proof. */
export const mfaResetRequest = z.object({
  proof: mfaProof,
  /** The portal's stored mfaResetRedirectUri; answered back only when registered. */
  redirectUri: z.string().max(2048).optional(),
});
export const mfaResetResponse = z.object({
  state: z.enum(userStates),
  redirectUri: z.string().nullable(),
});
export type MfaResetResponse = z.infer<typeof mfaResetResponse>;

/** SPEC §1 analytics events, sent by the portal. */
export const analyticsEventNames = [
  'mfa_register',
  'mfa_reset',
  'mfa_reminder_dismissed',
  'mfa_verification_required',
  'mfa_success',
  'mfa_failed',
  'mfa_device_id_generated',
] as const;
export type AnalyticsEventName = (typeof analyticsEventNames)[number];

/** POST /api/analytics/events */
export const analyticsEventRequest = z.object({
  event: z.enum(analyticsEventNames),
  properties: z
    .object({
      userType: z.enum(userTypes).optional(),
      deliveryType: z.enum(mfaDeliveryTypes).optional(),
    })
    .strict()
    .default({}),
});
export type AnalyticsEventRequest = z.input<typeof analyticsEventRequest>;
