import { z } from 'zod';
import { mfaDeliveryTypes } from './mfa.ts';
import { loginPasswordSchema, newPasswordSchema } from './validation.ts';

/**
 * The account page's API (docs/account.md): requests and answers of every call under
 * `accountApi` (account-api.ts). Times are epoch milliseconds. The portal imports the types
 * (and the constant lists) of this module; the server validates with the schemas.
 */

/** How a sign-in proved who it was: the password, a passkey, or a partner's assertion. */
export const accountSignInMethods = ['password', 'passkey', 'partner'] as const;
export type AccountSignInMethod = (typeof accountSignInMethods)[number];

/** What the recent-activity list holds (30 days). */
export const accountActivityKinds = [
  /** A successful sign-in; detail.method says how. */
  'sign-in',
  /** A wrong password for this account (never shown to anyone but the account's owner). */
  'sign-in-failed',
  /** The password was changed on the account page (or on the expired-password page). */
  'password-changed',
  /** The password was set again through a reset link. */
  'password-reset',
  /** An MFA factor was set up (detail.factor). */
  'factor-added',
  /** An MFA factor was removed (detail.factor). */
  'factor-removed',
  /** A passkey or security key was added (detail.name). */
  'passkey-added',
  /** A passkey or security key was removed (detail.name). */
  'passkey-removed',
  /** New recovery codes replaced the old ones. */
  'recovery-codes-renewed',
  /** A partner was linked to the account (detail.name: the partner's display name). */
  'partner-linked',
] as const;
export type AccountActivityKind = (typeof accountActivityKinds)[number];

/** The account page's names for MFA factors: authenticator app, phone (SMS or voice), mobile app. */
export const accountFactorKinds = ['authenticator-app', 'phone', 'mobile-app'] as const;
export type AccountFactorKind = (typeof accountFactorKinds)[number];

/**
 * A browser as the account page names it, read from its User-Agent: brand names, not
 * translated (`Firefox`, `Windows`); the page words them in its language. Null parts are unknown.
 */
export const browserSummarySchema = z.object({
  name: z.string().nullable(),
  os: z.string().nullable(),
  /** A phone or tablet. */
  mobile: z.boolean(),
});
export type BrowserSummary = z.infer<typeof browserSummarySchema>;

/** Whether the session is a recent sign-in (five minutes), and until when it counts as one. */
export const recentSignInSchema = z.object({
  recent: z.boolean(),
  /** When the window closes (ms); null when the sign-in is not recent. */
  until: z.number().int().nullable(),
});
export type RecentSignIn = z.infer<typeof recentSignInSchema>;

export const accountFactorSchema = z.object({
  /** The factor's id: DELETE accountApi.factor(id). */
  id: z.string(),
  kind: z.enum(accountFactorKinds),
  deliveryType: z.enum(mfaDeliveryTypes),
  /** The phone, masked (`+49 •••• ••••89`); null for the other kinds. */
  phone: z.string().nullable(),
  /** The mobile app's device name; null for the other kinds. */
  deviceName: z.string().nullable(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  /** The tenant's policy lets the account set another factor up in its place. */
  canReplace: z.boolean(),
  /** The tenant's policy lets the account remove it (not the last factor of a 'required' tenant). */
  canRemove: z.boolean(),
});
export type AccountFactor = z.infer<typeof accountFactorSchema>;

/** GET accountApi.overview */
export const accountOverviewResponse = z.object({
  email: z.string(),
  /** The account's language (a locale code). */
  locale: z.string(),
  recentSignIn: recentSignInSchema,
  /** How this session signed in. */
  signInMethod: z.enum(accountSignInMethods),
  password: z.object({
    /** The account has a password (a partner-made account may have none). */
    set: z.boolean(),
    changedAt: z.number().int().nullable(),
    /** The tenant's password lifetime in days; null: passwords do not expire. */
    expiryDays: z.number().int().nullable(),
    /** When the password expires (ms); null when it does not. */
    expiresAt: z.number().int().nullable(),
  }),
  mfa: z.object({
    /** The tenant's MFA policy as it applies now ('recommended' past its date is 'required'). */
    mode: z.enum(['off', 'recommended', 'required']),
    /** The factors the tenant offers, in the order the setup screen lists them. */
    methods: z.array(z.enum(mfaDeliveryTypes)),
    /** The account may set a factor up (the tenant offers MFA and none is set up yet). */
    canAdd: z.boolean(),
    factors: z.array(accountFactorSchema),
    recoveryCodesRemaining: z.number().int(),
  }),
  passkeys: z.object({
    count: z.number().int(),
    /** The tenant's passkeys setting. */
    mode: z.enum(['off', 'offered', 'preferred']),
  }),
});
export type AccountOverviewResponse = z.infer<typeof accountOverviewResponse>;

/** POST accountApi.password */
export const changePasswordRequest = z
  .object({
    currentPassword: loginPasswordSchema,
    newPassword: newPasswordSchema,
  })
  .strict();
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
export const changePasswordResponse = z.object({
  changedAt: z.number().int(),
  /** How many of the account's other sessions were ended (this one is kept). */
  endedSessions: z.number().int(),
});
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

/** POST accountApi.reauthenticate */
export const reauthenticateRequest = z.object({ password: loginPasswordSchema }).strict();
export type ReauthenticateRequest = z.infer<typeof reauthenticateRequest>;
export const reauthenticateResponse = z.object({
  recentSignIn: recentSignInSchema,
  /**
   * The account has a factor: prove it too (the MFA verify calls, or a passkey through the
   * passkeys verify call) before the sign-in counts as recent.
   */
  factorRequired: z.boolean(),
});
export type ReauthenticateResponse = z.infer<typeof reauthenticateResponse>;

export const accountSessionSchema = z.object({
  /** Opaque id of the session (never its token): DELETE accountApi.session(id). */
  id: z.string(),
  /** This browser's session. */
  current: z.boolean(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int(),
  /** The browser and system read from its User-Agent; null when it sent none. */
  browser: browserSummarySchema.nullable(),
  /** The client address it signed in from (or last used); null when unknown. */
  ip: z.string().nullable(),
  method: z.enum(accountSignInMethods),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountAppSchema = z.object({
  /** The app's OIDC client id: DELETE accountApi.app(clientId). */
  clientId: z.string(),
  name: z.string(),
  /** When the app last got a token for this account; null when unknown. */
  lastUsedAt: z.number().int().nullable(),
});
export type AccountApp = z.infer<typeof accountAppSchema>;

/** GET accountApi.sessions: this browser's session first, then the others, newest use first. */
export const accountSessionsResponse = z.object({
  sessions: z.array(accountSessionSchema),
  apps: z.array(accountAppSchema),
});
export type AccountSessionsResponse = z.infer<typeof accountSessionsResponse>;

/** DELETE accountApi.sessions (sign out everywhere else) */
export const endSessionsResponse = z.object({ ended: z.number().int() });
export type EndSessionsResponse = z.infer<typeof endSessionsResponse>;

export const trustedBrowserSchema = z.object({
  /** Opaque id: DELETE accountApi.trustedBrowser(id). */
  id: z.string(),
  /** This browser is the one trusted. */
  current: z.boolean(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  expiresAt: z.number().int(),
});
export type TrustedBrowser = z.infer<typeof trustedBrowserSchema>;

/** GET accountApi.trustedBrowsers */
export const trustedBrowsersResponse = z.object({ browsers: z.array(trustedBrowserSchema) });
export type TrustedBrowsersResponse = z.infer<typeof trustedBrowsersResponse>;

/** DELETE accountApi.trustedBrowsers (forget them all) */
export const forgetBrowsersResponse = z.object({ forgotten: z.number().int() });
export type ForgetBrowsersResponse = z.infer<typeof forgetBrowsersResponse>;

/** GET accountApi.activity?cursor&limit */
export const accountActivityQuery = z.object({
  /** The `next` of the previous page. */
  cursor: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type AccountActivityQuery = z.input<typeof accountActivityQuery>;

export const accountActivitySchema = z.object({
  id: z.string(),
  kind: z.enum(accountActivityKinds),
  at: z.number().int(),
  /** The browser and system read from its User-Agent; null when it sent none. */
  browser: browserSummarySchema.nullable(),
  ip: z.string().nullable(),
  detail: z.object({
    /** sign-in: how. */
    method: z.enum(accountSignInMethods).optional(),
    /** factor-added/removed: which kind. */
    factor: z.enum(accountFactorKinds).optional(),
    /** passkey-added/removed: its name; partner-linked: the partner's name. */
    name: z.string().optional(),
  }),
});
export type AccountActivity = z.infer<typeof accountActivitySchema>;

export const accountActivityResponse = z.object({
  items: z.array(accountActivitySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: z.string().nullable(),
});
export type AccountActivityResponse = z.infer<typeof accountActivityResponse>;

/** Path parameters of the single-item calls. */
export const accountItemParams = z.object({ id: z.string().min(1).max(128) });
export const accountAppParams = z.object({ clientId: z.string().min(1).max(255) });

/** The audit log's actions for changes made on the account page (actor 'system', target the user). */
export const accountAuditActions = {
  passwordChanged: 'account.password_changed',
  factorRemoved: 'account.factor_removed',
  sessionEnded: 'account.session_ended',
  otherSessionsEnded: 'account.other_sessions_ended',
  appSignedOut: 'account.app_signed_out',
  trustedBrowserForgotten: 'account.trusted_browser_forgotten',
  trustedBrowsersForgotten: 'account.trusted_browsers_forgotten',
} as const;
