import {
  defaultMfaMethods,
  type MessengerProvider,
  type MfaDeliveryType,
  type Theme,
} from '@keycard/contract';

export type MfaMode = 'off' | 'recommended' | 'required';

export type PasskeyMode = 'off' | 'offered' | 'preferred';

export interface TenantSettings {
  /** Days a password lives; null: passwords do not expire. */
  passwordExpiryDays: number | null;
  /** Warn this many days before expiry; null: no warning. */
  passwordWarningDays: number | null;
  emailVerificationRequired: boolean;
  mfa: {
    mode: MfaMode;
    mandatoryFrom: number | null;
    trustedDeviceDays: number;
    /**
     * The factors offered for registration, in the order the choice screen lists them; unset
     * offers totp, sms and voice (offeredMfaMethods). The partner app (smmobile) is offered only
     * when listed here: listing it is how a tenant says its device app is set up.
     */
    methods?: MfaDeliveryType[];
  };
  /**
   * Passkeys (docs/passkeys.md): 'off'; 'offered' (a passkey sign-in on the e-mail step, the
   * offer once after a password sign-in); 'preferred' (the passkey button first, the offer after
   * every password sign-in until the account has one).
   */
  passkeys: PasskeyMode;
  /** Security mail beyond the always-sent ones: a sign-in from a browser never seen before. */
  securityMail: { newBrowserSignIn: boolean };
  captcha: { siteKey: string | null; secret: string | null; verifyUrl: string | null };
  analyticsId: string | null;
  /** The messenger widget (apps/server/src/messenger); provider null: no widget. */
  messenger: {
    provider: MessengerProvider | null;
    appId: string | null;
    /** Host names on which the portal may start it (the tenant's login domain or aliases). */
    domains: string[];
    /** The stand-in provider's script; outside production only. */
    scriptUrl: string | null;
  };
}

export const defaultTenantSettings: TenantSettings = {
  passwordExpiryDays: null,
  passwordWarningDays: null,
  emailVerificationRequired: false,
  mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
  passkeys: 'offered',
  securityMail: { newBrowserSignIn: false },
  captcha: { siteKey: null, secret: null, verifyUrl: null },
  analyticsId: null,
  messenger: { provider: null, appId: null, domains: [], scriptUrl: null },
};

/** The factors a tenant offers: its settings' list, else the contract's defaultMfaMethods. */
export function offeredMfaMethods(settings: TenantSettings): MfaDeliveryType[] {
  const methods = settings.mfa.methods;
  return methods && methods.length > 0 ? [...methods] : [...defaultMfaMethods];
}

/** Everything a request needs to know of its tenant, built once and passed explicitly. */
export interface TenantContext {
  code: string;
  aliasCode: string | null;
  loginDomain: string;
  loginClientId: string;
  theme: Theme;
  defaultRedirectUri: string;
  settings: TenantSettings;
  /** Every URI a redirect may go to: client redirect and post-logout URIs, the default. */
  allowedRedirects: ReadonlySet<string>;
}

export interface ClientMetadata {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
  [key: string]: unknown;
}
