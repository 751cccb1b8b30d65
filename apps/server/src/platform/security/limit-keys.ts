/**
 * Every attempt limiter's bucket key, built here and nowhere else. A key names what is
 * counted and always carries the tenant where the count is a tenant's, so one tenant's
 * traffic never spends another's budget. Lifting a lockout (an admin's unlock, a password
 * reset, an account enabled) must name the very bucket the sign-in filled: both take it from
 * here.
 */
export const limitKeys = {
  /** Password sign-ins from one client address. */
  loginAddress: (tenantCode: string, ip: string) => `login:ip:${tenantCode}:${ip}`,
  /** The lockout of an e-mail address (invariant: counted before the password is checked). */
  loginEmail: (tenantCode: string, email: string) => `login:email:${tenantCode}:${email}`,
  /** The lockout lane of the account owner's trusted device. */
  loginDevice: (tenantCode: string, deviceId: string) => `login:device:${tenantCode}:${deviceId}`,
  /** The lockout lane of a browser that signed in to the account before. */
  loginBrowser: (tenantCode: string, browserId: string) => `login:browser:${tenantCode}:${browserId}`,
  /** Partner sign-ins from one client address. */
  partnerAddress: (tenantCode: string, ip: string) => `partner-sso:ip:${tenantCode}:${ip}`,
  /** Account mail requests (reset, activation) from one client address. */
  lifecycleAddress: (tenantCode: string, ip: string) => `lifecycle:ip:${tenantCode}:${ip}`,
  /** Account mail sent to one address. */
  lifecycleMail: (tenantCode: string, email: string) => `lifecycle:mail:${tenantCode}:${email}`,
  /** Verification mails of one account. */
  verifyMail: (tenantCode: string, userId: string) => `lifecycle:verify:${tenantCode}:${userId}`,
  /** MFA code checks of one account. */
  mfaVerify: (tenantCode: string, userId: string) => `mfa:verify:${tenantCode}:${userId}`,
  /** The pause between two codes sent to one account. */
  mfaSend: (tenantCode: string, userId: string) => `mfa:send:${tenantCode}:${userId}`,
  /** Codes sent to one phone number, per hour and per day (across tenants: one phone, one bill). */
  phoneHour: (phone: string) => `mfa:phone:${phone}:h`,
  phoneDay: (phone: string) => `mfa:phone:${phone}:d`,
  /** Codes sent to one account per hour. */
  phoneUserHour: (tenantCode: string, userId: string) => `mfa:user:${tenantCode}:${userId}:h`,
  /** Codes sent for one tenant per hour. */
  phoneTenantHour: (tenantCode: string) => `mfa:tenant:${tenantCode}:h`,
  /** Passkey sign-in ceremonies (options and assertions) from one client address. */
  passkeyAddress: (tenantCode: string, ip: string) => `passkey:ip:${tenantCode}:${ip}`,
  /** Passkey ceremonies of one signed-in account (creation, MFA, the recent-sign-in check). */
  passkeyAccount: (tenantCode: string, userId: string) => `passkey:user:${tenantCode}:${userId}`,
  /** Analytics events from one client address. */
  analyticsAddress: (tenantCode: string, ip: string) => `analytics:${tenantCode}:${ip}`,
  /** Admin API calls from one client address. */
  adminAddress: (ip: string) => `admin:address:${ip}`,
  /** Failed admin token checks from one client address. */
  adminTokenFailures: (ip: string) => `admin:token-failures:${ip}`,
  /** Admin API calls of one operator. */
  adminOperator: (operatorId: string) => `admin:operator:${operatorId}`,
  /** Secret-answer checks of one account by one operator (the help desk). */
  adminSecretAnswer: (tenantCode: string, userId: string, operator: string) =>
    `admin:secret-answer:${tenantCode}:${userId}:${operator}`,
} as const;

/** The limits of `limitKeys` by name: what metrics label a refusal with (never the key). */
const limitNames = new Set([
  'login:ip',
  'login:email',
  'login:device',
  'login:browser',
  'partner-sso:ip',
  'lifecycle:ip',
  'lifecycle:mail',
  'lifecycle:verify',
  'mfa:verify',
  'mfa:send',
  'mfa:user',
  'mfa:tenant',
  'passkey:ip',
  'passkey:user',
  'admin:address',
  'admin:token-failures',
  'admin:operator',
  'admin:secret-answer',
]);

/**
 * The name of the limit a key counts for, without its tenant, address, e-mail or id:
 * `login:email` for `login:email:<tenant>:<address>`. A key made elsewhere is `other`.
 */
export function limitNameOf(key: string): string {
  const [kind = '', part = ''] = key.split(':', 2);
  if (kind === 'analytics') return 'analytics:ip';
  if (kind === 'mfa' && part === 'phone') return key.endsWith(':d') ? 'mfa:phone-day' : 'mfa:phone-hour';
  const name = `${kind}:${part}`;
  return limitNames.has(name) ? name : 'other';
}
