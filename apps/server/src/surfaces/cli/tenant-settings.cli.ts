import { mfaDeliveryTypes, warningExceedsExpiry, warningExceedsExpiryMessage } from '@keycard/contract';
import { applyVerificationPolicy } from '../../features/accounts/index.ts';
import type { TenantContext, TenantDirectory, TenantSettings } from '../../features/tenants/index.ts';
import { updateTenantSettings } from '../../features/tenants/index.ts';
import { cliActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/database.ts';
import { assertOutboundAddresses } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { UsageError } from './cli-args.ts';

/** keycard tenant-settings: a tenant's account settings, shown or changed. */
export const tenantSettingsUsage = `  keycard tenant-settings --tenant <code> [--set <name>=<value> …]
      Shows the tenant's account settings, or changes them. Names: passwordExpiryDays,
      passwordWarningDays (whole days or null), emailVerificationRequired (true|false),
      captcha.siteKey, captcha.secret, captcha.verifyUrl, captcha.scriptUrl (text or null),
      captcha.minScore (0 to 1), mfa.mode (off|recommended|required), mfa.mandatoryFrom
      (a date such as 2027-03-01, or null), mfa.trustedDeviceDays (1 to 365), mfa.methods
      (factors offered, such as totp,sms; all for every factor), analyticsId
      (text or null), messenger.provider (intercom, standin or null), messenger.appId (text or
      null), messenger.domains (host names separated by commas, or none), messenger.scriptUrl
      (the stand-in's script, a URL or null), passkeys (off|offered|preferred),
      securityMail.newBrowserSignIn (true|false: a mail on a sign-in from a browser never seen
      before). Running servers apply changes within 5 seconds.
      Turning emailVerificationRequired on asks every account whose address is not verified
      yet to verify it at its next sign-in; turning it off asks nobody.
`;

const isUrlOrNull = (value: unknown) => value === null || (typeof value === 'string' && URL.canParse(value));
const isTextOrNull = (value: unknown) => value === null || (typeof value === 'string' && value.length > 0);
const isHostName = (value: unknown) =>
  typeof value === 'string' &&
  value.length <= 253 &&
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(value);
const isDays = (max: number, min: number) => (value: unknown) =>
  value === null || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max);

/** The account settings an operator may change here, with what each accepts. */
const settingRules: Record<
  string,
  { check: (value: unknown) => boolean; expects: string; parse?: (raw: string) => unknown }
> = {
  passwordExpiryDays: { check: isDays(3650, 1), expects: 'whole days from 1 to 3650, or null' },
  passwordWarningDays: { check: isDays(365, 0), expects: 'whole days from 0 to 365, or null' },
  emailVerificationRequired: { check: (v) => typeof v === 'boolean', expects: 'true or false' },
  'captcha.siteKey': { check: isTextOrNull, expects: 'text or null' },
  'captcha.secret': { check: isTextOrNull, expects: 'text or null' },
  'captcha.verifyUrl': { check: isUrlOrNull, expects: 'a URL or null' },
  'captcha.scriptUrl': { check: isUrlOrNull, expects: 'a URL or null' },
  'captcha.minScore': {
    check: (v) => typeof v === 'number' && v >= 0 && v <= 1,
    expects: 'a number from 0 to 1',
  },
  'mfa.mode': {
    check: (v) => v === 'off' || v === 'recommended' || v === 'required',
    expects: 'off, recommended or required',
  },
  'mfa.mandatoryFrom': {
    check: (v) =>
      v === null || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v))),
    expects: 'a date such as 2027-03-01, or null',
  },
  'mfa.trustedDeviceDays': { check: isDays(365, 1), expects: 'whole days from 1 to 365' },
  'mfa.methods': {
    // "all" clears the list: a tenant without one offers every factor.
    parse: (raw) => (raw === 'all' ? [] : raw.split(',').map((method) => method.trim())),
    check: (v) =>
      Array.isArray(v) &&
      v.every((method) => (mfaDeliveryTypes as readonly unknown[]).includes(method)) &&
      new Set(v).size === v.length,
    expects: `factors separated by commas (${mfaDeliveryTypes.join(', ')}), each once, or all`,
  },
  analyticsId: { check: isTextOrNull, expects: 'text or null' },
  'messenger.provider': {
    check: (v) => v === null || v === 'intercom' || v === 'standin',
    expects: 'intercom, standin or null',
  },
  'messenger.appId': {
    check: (v) => v === null || (typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v)),
    expects: 'letters, digits, dashes and underscores, or null',
  },
  'messenger.domains': {
    parse: (raw) => (raw === 'none' ? [] : raw.split(',').map((host) => host.trim().toLowerCase())),
    check: (v) => Array.isArray(v) && v.length <= 20 && v.every(isHostName),
    expects: 'host names separated by commas (such as login.example.com), or none',
  },
  'messenger.scriptUrl': { check: isUrlOrNull, expects: 'a URL or null' },
  passkeys: {
    check: (v) => v === 'off' || v === 'offered' || v === 'preferred',
    expects: 'off, offered or preferred',
  },
  'securityMail.newBrowserSignIn': { check: (v) => typeof v === 'boolean', expects: 'true or false' },
};

function settingValue(raw: string): unknown {
  if (raw === 'null') return null;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** `name=value` pairs as a settings patch (captcha.* nested), each checked against its rule. */
export function settingsPatch(pairs: string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at > 0 ? pair.slice(0, at).trim() : '';
    const rule = settingRules[name];
    if (!rule) {
      throw new UsageError(
        `--set ${pair}: the setting must be one of ${Object.keys(settingRules).join(', ')}`,
      );
    }
    const raw = pair.slice(at + 1).trim();
    const value = rule.parse ? rule.parse(raw) : settingValue(raw);
    if (!rule.check(value)) throw new UsageError(`--set ${pair}: ${name} takes ${rule.expects}`);
    // Dates are stored as epoch milliseconds, like every time in Keycard.
    const stored = name === 'mfa.mandatoryFrom' && typeof value === 'string' ? Date.parse(value) : value;
    const [group, key] = name.split('.');
    if (key) patch[group!] = { ...(patch[group!] as object | undefined), [key]: stored };
    else patch[name] = stored;
  }
  return patch;
}

/**
 * Why a settings patch is refused when it names an address inside Keycard's network for its
 * servers to fetch (the captcha verifier), as the admin API and `keycard apply` refuse it; null if not.
 */
function outboundRefusal(patch: Record<string, unknown>, allowPrivate: boolean): string | null {
  try {
    assertOutboundAddresses({ settings: patch as { captcha?: { verifyUrl?: string | null } } }, allowPrivate);
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = Object.entries(error.fields ?? {}).map(
      ([field, problem]) => `  ${field.replace(/^settings\./, '')}: ${problem}`,
    );
    return `The settings were not saved:\n${problems.join('\n')}`;
  }
}

/** The settings an operator sees: the secret never printed in full. */
function printableSettings(settings: TenantSettings): string {
  const {
    passwordExpiryDays,
    passwordWarningDays,
    emailVerificationRequired,
    captcha,
    mfa,
    analyticsId,
    messenger,
    passkeys,
    securityMail,
  } = settings;
  const secret = captcha.secret ? '(set)' : null;
  const mandatoryFrom =
    mfa.mandatoryFrom === null ? null : new Date(mfa.mandatoryFrom).toISOString().slice(0, 10);
  return JSON.stringify(
    {
      passwordExpiryDays,
      passwordWarningDays,
      emailVerificationRequired,
      captcha: { ...captcha, secret },
      mfa: { ...mfa, mandatoryFrom },
      passkeys,
      securityMail,
      analyticsId,
      // Shown once a provider is chosen; a tenant without a widget reads as before.
      ...(messenger.provider ? { messenger } : {}),
    },
    null,
    2,
  );
}

/**
 * keycard tenant-settings once its arguments are checked: with no `--set`, shows the settings;
 * otherwise changes them (audited), then shows them. Answers the exit code.
 */
export async function runTenantSettingsCommand(
  patch: Record<string, unknown>,
  deps: {
    db: Db['kysely'];
    config: Config;
    directory: TenantDirectory;
    now: number;
    clock: () => number;
    out: (line: string) => void;
    err: (line: string) => void;
  },
  current: TenantContext,
): Promise<number> {
  const { db, directory, now } = deps;
  let tenant = current;
  const refused = outboundRefusal(patch, deps.config.allowPrivateOutbound);
  if (refused) {
    deps.err(refused);
    return 1;
  }
  // What the patch leaves out it keeps: the warning is checked against the expiry it will meet.
  const expiry =
    'passwordExpiryDays' in patch ? patch.passwordExpiryDays : tenant.settings.passwordExpiryDays;
  const warning =
    'passwordWarningDays' in patch ? patch.passwordWarningDays : tenant.settings.passwordWarningDays;
  if (warningExceedsExpiry(expiry as number | null, warning as number | null)) {
    deps.err(
      `The settings were not saved:\n  passwordWarningDays: ${warningExceedsExpiryMessage} (${expiry} days)`,
    );
    return 1;
  }
  if (Object.keys(patch).length > 0) {
    const before = Object.fromEntries(
      Object.keys(patch).map((key) => [key, (tenant.settings as unknown as Record<string, unknown>)[key]]),
    );
    await updateTenantSettings(db, tenant.code, patch);
    await recordAudit(
      db,
      cliActor,
      {
        tenant: tenant.code,
        action: 'settings.update',
        target: { kind: 'tenant', id: tenant.code },
        before,
        after: patch,
      },
      now,
    );
    if (typeof patch.emailVerificationRequired === 'boolean') {
      const flagged = await applyVerificationPolicy(
        db,
        tenant.code,
        patch.emailVerificationRequired,
        deps.clock(),
      );
      deps.err(
        `${flagged} existing account(s) ${patch.emailVerificationRequired ? 'will be asked' : 'are no longer asked'} to verify their address.`,
      );
    }
    directory.invalidate();
    tenant = (await directory.byCode(tenant.code))!;
    deps.err(`Updated the settings of ${tenant.code}.`);
  }
  deps.out(printableSettings(tenant.settings));
  return 0;
}
