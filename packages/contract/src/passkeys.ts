import { z } from 'zod';
import { userStates } from './user-state.ts';

/**
 * Passkeys (WebAuthn Level 3) on the portal API (docs/passkeys.md): the request and answer
 * schemas of `apiPaths.passkeys`. The options are the JSON forms WebAuthn L3 defines
 * (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON), so the portal hands them to
 * `PublicKeyCredential.parse…OptionsFromJSON` or @simplewebauthn/browser as they are, and sends
 * back the credential's `toJSON()`.
 */

/** A tenant's passkey setting: off, offered (default), or preferred (the passkey first). */
export const passkeyModes = ['off', 'offered', 'preferred'] as const;
export type PasskeyMode = (typeof passkeyModes)[number];

/**
 * HttpOnly cookie binding passkey ceremonies to the browser that asked for their options: a
 * challenge is accepted only from the browser holding it (path /api/passkeys).
 */
export const passkeyCeremonyCookie = 'AUTH_X_PASSKEY';

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/);

/** Transports an authenticator may report (WebAuthn L3 AuthenticatorTransport). */
export const passkeyTransports = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
export type PasskeyTransport = (typeof passkeyTransports)[number];

const credentialDescriptor = z.object({
  id: base64url,
  type: z.literal('public-key'),
  transports: z.array(z.enum(passkeyTransports)),
});

/** Options for navigator.credentials.get (sign-in, MFA and the recent-sign-in check). */
export const passkeyRequestOptions = z.object({
  challenge: base64url,
  rpId: z.string(),
  /** Milliseconds the browser may wait for the person (the challenge lives five minutes). */
  timeout: z.number().int(),
  /** 'required' for a passkey sign-in; 'preferred' for MFA, so a security key without PIN works. */
  userVerification: z.enum(['required', 'preferred']),
  /** Empty for a sign-in (discoverable credentials: the browser offers the passkeys it holds). */
  allowCredentials: z.array(credentialDescriptor),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

/** Options for navigator.credentials.create (a new passkey on the signed-in account). */
export const passkeyCreationOptions = z.object({
  challenge: base64url,
  rp: z.object({ id: z.string(), name: z.string() }),
  /** `id` is the account's random user handle (never its e-mail or id). */
  user: z.object({ id: base64url, name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int(),
  attestation: z.literal('none'),
  /** The account's passkeys on this domain, so an authenticator holding one makes no second. */
  excludeCredentials: z.array(credentialDescriptor),
  authenticatorSelection: z.object({
    residentKey: z.literal('required'),
    requireResidentKey: z.literal(true),
    userVerification: z.literal('required'),
  }),
  extensions: z.object({ credProps: z.literal(true) }),
  hints: z.array(z.enum(['security-key', 'client-device', 'hybrid'])),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** Client extension outputs the server reads (credProps); others are accepted and ignored. */
const clientExtensionResults = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .optional();

/** An assertion: `PublicKeyCredential.toJSON()` after navigator.credentials.get. */
export const passkeyAssertion = z.object({
  id: base64url.min(1).max(1400),
  rawId: base64url.min(1).max(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url.min(1).max(8192),
    authenticatorData: base64url.min(1).max(8192),
    signature: base64url.min(1).max(2048),
    userHandle: base64url.max(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertion>;

/** An attestation: `PublicKeyCredential.toJSON()` after navigator.credentials.create. */
export const passkeyAttestation = z.object({
  id: base64url.min(1).max(1400),
  rawId: base64url.min(1).max(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url.min(1).max(8192),
    attestationObject: base64url.min(1).max(65536),
    /** Unknown transports are ignored. */
    transports: z.array(z.string().max(32)).max(16).optional(),
    authenticatorData: base64url.max(16384).optional(),
    publicKey: base64url.max(16384).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});
export type PasskeyAttestation = z.infer<typeof passkeyAttestation>;

/** A passkey's name as the person gives it. */
export const passkeyNameSchema = z.string().trim().min(1).max(64);

/** One of the signed-in account's passkeys. */
export const passkeySummary = z.object({
  id: z.string(),
  /**
   * The credential id as the authenticator knows it (base64url): what the portal names in the
   * WebAuthn Signal API (`signalUnknownCredential`, `signalAllAcceptedCredentials`).
   */
  credentialId: base64url.min(1),
  name: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  /** Backup eligible: kept in a passkey provider that syncs it between devices (amr swk). */
  synced: z.boolean(),
  /** Bound to one device or security key (amr hwk). The opposite of synced. */
  deviceBound: z.boolean(),
  transports: z.array(z.enum(passkeyTransports)),
  /** The domain it was made on: it signs in there only. */
  rpId: z.string(),
  /** Made on the domain this page is on, so it can be used here. */
  usableHere: z.boolean(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

/** POST apiPaths.passkeys.signInOptions — no input: the host is the relying party. */
export const passkeyOptionsRequest = z.object({}).strict();
/** Answer of every options call that leads to navigator.credentials.get. */
export const passkeyRequestOptionsResponse = z.object({ options: passkeyRequestOptions });
export type PasskeyRequestOptionsResponse = z.infer<typeof passkeyRequestOptionsResponse>;

/**
 * POST apiPaths.passkeys.signIn — the assertion, with the portal's `state` (checked on
 * /authenticate as after a password) and the app request it is for (AUTH_X_IID), if any.
 * Answers `{ code, state }` as POST /api/login does (loginResponse).
 */
export const passkeySignInRequest = z.object({
  credential: passkeyAssertion,
  state: z.string().min(16).max(128),
  iid: z.string().min(1).max(128).optional(),
});

/** POST apiPaths.passkeys.registrationOptions */
export const passkeyCreationOptionsResponse = z.object({ options: passkeyCreationOptions });
export type PasskeyCreationOptionsResponse = z.infer<typeof passkeyCreationOptionsResponse>;

/** POST apiPaths.passkeys.register — the attestation; `name` optional (a default is made). */
export const passkeyRegisterRequest = z.object({
  credential: passkeyAttestation,
  name: passkeyNameSchema.optional(),
});
/** One passkey: the answer of register (201) and rename. */
export const passkeyResponse = z.object({ passkey: passkeySummary });
export type PasskeyResponse = z.infer<typeof passkeyResponse>;

/** POST apiPaths.passkeys.verify — the assertion that passes MFA (or the recent-sign-in check). */
export const passkeyVerifyRequest = z.object({ credential: passkeyAssertion });
/** The session's state after it (as POST /api/mfa/verify answers `state`). */
export const passkeyVerifyResponse = z.object({
  state: z.enum(userStates),
});
export type PasskeyVerifyResponse = z.infer<typeof passkeyVerifyResponse>;

/** GET apiPaths.passkeys.list */
export const passkeyListResponse = z.object({
  /** Every one of the account's passkeys, on every domain: never paged or cut short. */
  passkeys: z.array(passkeySummary),
  /** The account's passkey limit. */
  limit: z.number().int(),
  /**
   * The account's WebAuthn user handle (base64url of its random bytes, as `user.id` at
   * creation; never its e-mail or id), for the Signal API. Null before its first passkey.
   */
  userHandle: base64url.min(1).nullable(),
});
export type PasskeyListResponse = z.infer<typeof passkeyListResponse>;

/** PATCH apiPaths.passkeys.item(id) */
export const passkeyRenameRequest = z.object({ name: passkeyNameSchema });
export const passkeyItemParams = z.object({ id: z.string().min(1).max(64) });
