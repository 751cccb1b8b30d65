import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { readApnsKey, readFcmServiceAccount } from './messaging/push/push-credentials.ts';
import { type HashingQueueSettings, hashingQueueSettings } from './security/hashing-queue.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An address (`192.168.1.10`) or a network in CIDR form (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrNetwork(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true` believes every X-Forwarded-For entry, and the left-most one (which the client writes)
 * becomes the client's address; a list of the load balancers' addresses makes Fastify
 * (proxy-addr) take the right-most address that is not one of them. A hop count is refused:
 * this Fastify version trusts nothing for a number (docs/operations.md#behind-a-load-balancer).
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | string[] => {
    const flag = bool.safeParse(value);
    if (flag.success) return flag.data;
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isAddressOrNetwork)) return entries;
    context.addIssue({
      code: 'custom',
      message:
        'must be true, false, or the load balancers’ addresses and networks, comma-separated (e.g. 10.0.0.0/8,192.168.1.10); hop counts are not supported',
    });
    return z.NEVER;
  });

/**
 * A secret that can be rotated: one value, or a comma-separated list, newest first. The newest
 * signs or encrypts; the older ones are only read with, until the operator drops them.
 */
function secretList(valid: (entry: string) => boolean, message: string) {
  return z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()))
    .refine((entries) => entries.length > 0 && entries.every(valid), message)
    .refine((entries) => new Set(entries).size === entries.length, 'lists the same value twice');
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL; leave unset for the embedded SQLite file')
    .optional(),
  /** The owner role that runs migrations (docs/operations.md#database-roles); default DATABASE_URL. */
  MIGRATION_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** strict: refuse to serve on a role that can alter the audit log; demo: only warn. */
  AUDIT_LOG_PROTECTION: z.enum(['strict', 'demo']).default('strict'),
  /** Where audit entries are copied as JSON lines as they commit (admin/audit-sink.ts). */
  AUDIT_SINK_FILE: z.string().min(1).optional(),
  AUDIT_SINK_URL: z.url().optional(),
  AUDIT_SINK_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PUBLIC_SCHEME: z.enum(['http', 'https']).optional(),
  PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** One secret, or several comma-separated, newest first (docs/operations.md#rotating-secrets). */
  COOKIE_SECRET: secretList((entry) => entry.length >= 32, 'each must be at least 32 characters').optional(),
  /** One key, or several comma-separated, newest first: the first encrypts, every one decrypts. */
  ENCRYPTION_KEY: secretList(
    (entry) => /^[0-9a-fA-F]{64}$/.test(entry),
    'each must be 64 hex characters (32 bytes)',
  ).optional(),
  TRUST_PROXY: trustProxy.default(false),
  SEED_DEMO: bool.optional(),
  /** The operator host: admin API and console, and the operator tenant's login domain. */
  ADMIN_DOMAIN: z
    .string()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'must be a lower-case host name',
    )
    .default('admin.localhost'),
  /** The built admin console (default apps/console/dist). */
  CONSOLE_DIST: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Keycard <no-reply@keycard.localhost>'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCKOUT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  LOGIN_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Admin API requests per minute, per operator and per client address (docs/admin-api.md). */
  ADMIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  ADMIN_IP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  /** Admin API requests with a missing or wrong token, per client address and minute. */
  ADMIN_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Lets owner-set outbound fetches (JWKS, captcha) reach private addresses; default outside production. */
  ALLOW_PRIVATE_OUTBOUND: bool.optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC followed by 32 hex characters)')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be the account auth token').optional(),
  TWILIO_FROM: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be a Twilio phone number in E.164 form, e.g. +14155550100')
    .optional(),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  FCM_PROJECT_ID: z
    .string()
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'must be a Firebase project id, e.g. keycard-authenticator')
    .optional(),
  FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  FCM_BASE_URL: z.url().default('https://fcm.googleapis.com'),
  APNS_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character Team ID of the Apple developer account')
    .optional(),
  APNS_KEY_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character id of the APNs key')
    .optional(),
  APNS_KEY_FILE: z.string().min(1).optional(),
  APNS_BUNDLE_ID: z
    .string()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be the app bundle id, e.g. com.example.authenticator')
    .optional(),
  APNS_BASE_URL: z.url().default('https://api.push.apple.com'),
  MFA_PHONE_CODES_PER_TENANT_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  ANALYTICS_URL: z.url().optional(),
  /** Origins of web device apps allowed to call the mobile GraphQL endpoint (comma list). */
  MOBILE_APP_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine(
      (origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin),
      {
        message: 'must be a comma-separated list of origins, e.g. http://localhost:3003',
      },
    )
    .optional(),
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(7168).max(4_194_304).default(65_536),
  PASSWORD_HASH_ITERATIONS: z.coerce.number().int().min(1).max(20).default(3),
  PASSWORD_HASH_PARALLELISM: z.coerce.number().int().min(1).max(16).default(4),
  /** Password hashes one instance runs at once (default: its number of cores). */
  HASHING_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** On SIGTERM, how long /readyz answers 503 while still serving (default 5 in production, else 0). */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).optional(),
  /** Then how long requests in flight may take before their connections are cut. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(25),
  /** Password hashes waiting at most (default: 32 per running hash); more are refused with 503. */
  HASHING_QUEUE_LENGTH: z.coerce.number().int().min(0).max(100_000).optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  /** Embedded mode: SQLite file, generated secrets, local outbox page, demo seed. */
  embedded: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The role migrations run as (the audit log's owner); DATABASE_URL unless set apart. */
  migrationDatabaseUrl: string | undefined;
  auditLogProtection: 'strict' | 'demo';
  auditSink: { file: string | undefined; url: string | undefined; token: string | undefined };
  publicScheme: 'http' | 'https';
  /** Port shown in public URLs (issuers, mail links); undefined for the scheme's default. */
  publicPort: number | undefined;
  /** The newest COOKIE_SECRET: what cookies are signed with. */
  cookieSecret: string | undefined;
  /** Every COOKIE_SECRET, newest first: a cookie signed with any of them is believed. */
  cookieSecrets: string[];
  /** The newest ENCRYPTION_KEY (hex): what data is encrypted with. */
  encryptionKey: string | undefined;
  /** Every ENCRYPTION_KEY (hex), newest first: data sealed with any of them is read. */
  encryptionKeys: string[];
  /** Fastify's `trustProxy`: all proxies (`true`), none, or these addresses and networks. */
  trustProxy: boolean | string[];
  seedDemo: boolean;
  /** The operator host (admin API, console, operator tenant); the API answers 404 elsewhere. */
  adminDomain: string;
  /** The built admin console, when not the checkout's apps/console/dist. */
  consoleDist: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  logLevel: string;
  login: { maxFailures: number; lockoutMinutes: number; ipLimitPerMinute: number };
  /** Admin API request limits, per minute. */
  adminLimits: { perOperator: number; perAddress: number; authFailuresPerAddress: number };
  /**
   * Whether addresses owners set for the server to fetch (a partner's JWKS, the captcha
   * check) may be private, loopback or link-local; off in production (SSRF).
   */
  allowPrivateOutbound: boolean;
  /** SMS and voice through Twilio; undefined keeps them in the local outbox (embedded mode). */
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string } | undefined;
  /** Pushes to ANDROID devices through FCM HTTP v1; undefined keeps them in the local outbox (embedded mode). */
  fcm:
    | {
        projectId: string;
        clientEmail: string;
        privateKey: string;
        privateKeyId: string | undefined;
        tokenUri: string;
        baseUrl: string;
      }
    | undefined;
  /** Pushes to IOS devices through APNs; undefined keeps them in the local outbox (embedded mode). */
  apns: { teamId: string; keyId: string; privateKey: string; bundleId: string; baseUrl: string } | undefined;
  mfa: {
    /** Phone codes one tenant may send per hour (SMS-pumping ceiling). */
    phoneCodesPerTenantHour: number;
  };
  /** Analytics collector that events of tenants with an analytics id are forwarded to. */
  analyticsUrl: string | undefined;
  /**
   * Origins of web device apps (the reference app) that may call /api/mobile-beef/graphql
   * across origins and open its websocket; native apps send no Origin.
   */
  mobileAppOrigins: string[];
  /** argon2id parameters for new password hashes (stored hashes keep their own). */
  passwordHashing: PasswordHashing;
  /** The instance's bound on password hashing (security/hashing-queue.ts). */
  hashingQueue: HashingQueueSettings;
  /** SIGTERM: /readyz 503 for drainMs while serving, then at most timeoutMs for what is in flight. */
  shutdown: { drainMs: number; timeoutMs: number };
}

export interface PasswordHashing {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

export class ConfigError extends Error {}

/** OWASP Password Storage Cheat Sheet, argon2id: the least memory (KiB) for each number of passes. */
const owaspArgon2idMinimumKib = { 1: 47_104, 2: 19_456, 3: 12_288, 4: 9_216, 5: 7_168 } as const;

/** Reads and checks the environment; a bad variable stops the start with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const config: Config = {
    env: e.NODE_ENV,
    embedded: !production,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL ?? e.DATABASE_URL,
    auditLogProtection: e.AUDIT_LOG_PROTECTION,
    auditSink: {
      file: e.AUDIT_SINK_FILE ? path.resolve(e.AUDIT_SINK_FILE) : undefined,
      url: e.AUDIT_SINK_URL,
      token: e.AUDIT_SINK_TOKEN,
    },
    publicScheme: e.PUBLIC_SCHEME ?? (production ? 'https' : 'http'),
    publicPort: e.PUBLIC_PORT ?? (production ? undefined : e.PORT),
    cookieSecret: e.COOKIE_SECRET?.[0],
    cookieSecrets: e.COOKIE_SECRET ?? [],
    encryptionKey: e.ENCRYPTION_KEY?.[0]?.toLowerCase(),
    encryptionKeys: (e.ENCRYPTION_KEY ?? []).map((key) => key.toLowerCase()),
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO ?? !production,
    adminDomain: e.ADMIN_DOMAIN,
    consoleDist: e.CONSOLE_DIST ? path.resolve(e.CONSOLE_DIST) : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    login: {
      maxFailures: e.LOGIN_MAX_FAILURES,
      lockoutMinutes: e.LOGIN_LOCKOUT_MINUTES,
      ipLimitPerMinute: e.LOGIN_IP_LIMIT_PER_MINUTE,
    },
    adminLimits: {
      perOperator: e.ADMIN_RATE_LIMIT_PER_MINUTE,
      perAddress: e.ADMIN_IP_RATE_LIMIT_PER_MINUTE,
      authFailuresPerAddress: e.ADMIN_AUTH_FAILURES_PER_MINUTE,
    },
    allowPrivateOutbound: e.ALLOW_PRIVATE_OUTBOUND ?? !production,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM,
            apiUrl: e.TWILIO_API_URL,
          }
        : undefined,
    ...pushSettings(e, production),
    mfa: { phoneCodesPerTenantHour: e.MFA_PHONE_CODES_PER_TENANT_HOUR },
    analyticsUrl: e.ANALYTICS_URL,
    // The reference device app (examples/mobile-app) runs on port 3003 outside production.
    mobileAppOrigins: e.MOBILE_APP_ORIGINS ?? (production ? [] : ['http://localhost:3003']),
    passwordHashing: {
      memoryKib: e.PASSWORD_HASH_MEMORY_KIB,
      iterations: e.PASSWORD_HASH_ITERATIONS,
      parallelism: e.PASSWORD_HASH_PARALLELISM,
    },
    hashingQueue: hashingQueueSettings(e.HASHING_CONCURRENCY, e.HASHING_QUEUE_LENGTH),
    shutdown: {
      // Long enough for a load balancer checking every 2 s to see two failures.
      drainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (production ? 5 : 0)) * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
  };
  // OWASP's minimum for argon2id is a table of equal-cost rows: never less memory than the
  // row for the number of passes asks.
  const { memoryKib, iterations } = config.passwordHashing;
  const minimumKib = owaspArgon2idMinimumKib[Math.min(iterations, 5) as 1 | 2 | 3 | 4 | 5];
  if (memoryKib < minimumKib) {
    throw new ConfigError(
      `Invalid configuration: with PASSWORD_HASH_ITERATIONS=${iterations}, PASSWORD_HASH_MEMORY_KIB must be at least ${minimumKib} (OWASP minimum for argon2id)`,
    );
  }
  const twilioSet = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN, e.TWILIO_FROM].filter(Boolean).length;
  if (twilioSet > 0 && twilioSet < 3) {
    throw new ConfigError(
      'Invalid configuration: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together',
    );
  }
  if (e.MIGRATION_DATABASE_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: MIGRATION_DATABASE_URL needs DATABASE_URL (the role the server runs as)',
    );
  }
  if (production) {
    const missing = [
      !config.cookieSecret && 'COOKIE_SECRET',
      !config.encryptionKey && 'ENCRYPTION_KEY',
      !config.databaseUrl && 'DATABASE_URL',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration: production needs ${missing.join(', ')}`);
    }
  }
  return config;
}

/**
 * FCM and APNs settings go together like Twilio's; their key files are read and checked now,
 * so a wrong file stops the start instead of failing every push. Production sends the
 * providers' credentials over https only.
 */
function pushSettings(e: z.infer<typeof envSchema>, production: boolean): Pick<Config, 'fcm' | 'apns'> {
  const readFile = <T>(name: string, file: string, read: (file: string) => T): T => {
    try {
      return read(file);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: ${(error as Error).message}`);
    }
  };
  const requireHttps = (name: string, url: string) => {
    if (production && new URL(url).protocol !== 'https:') {
      throw new ConfigError(`Invalid configuration:\n  ${name}: must be an https:// URL in production`);
    }
  };
  const fcmSet = [e.FCM_PROJECT_ID, e.FCM_SERVICE_ACCOUNT_FILE].filter(Boolean).length;
  if (fcmSet === 1) {
    throw new ConfigError('Invalid configuration: FCM_PROJECT_ID and FCM_SERVICE_ACCOUNT_FILE go together');
  }
  const apnsSet = [e.APNS_TEAM_ID, e.APNS_KEY_ID, e.APNS_KEY_FILE, e.APNS_BUNDLE_ID].filter(Boolean).length;
  if (apnsSet > 0 && apnsSet < 4) {
    throw new ConfigError(
      'Invalid configuration: APNS_TEAM_ID, APNS_KEY_ID, APNS_KEY_FILE and APNS_BUNDLE_ID go together',
    );
  }
  let fcm: Config['fcm'];
  if (e.FCM_PROJECT_ID && e.FCM_SERVICE_ACCOUNT_FILE) {
    const account = readFile('FCM_SERVICE_ACCOUNT_FILE', e.FCM_SERVICE_ACCOUNT_FILE, readFcmServiceAccount);
    requireHttps('FCM_BASE_URL', e.FCM_BASE_URL);
    requireHttps('FCM_SERVICE_ACCOUNT_FILE (token_uri)', account.tokenUri);
    fcm = { projectId: e.FCM_PROJECT_ID, ...account, baseUrl: e.FCM_BASE_URL };
  }
  let apns: Config['apns'];
  if (e.APNS_TEAM_ID && e.APNS_KEY_ID && e.APNS_KEY_FILE && e.APNS_BUNDLE_ID) {
    requireHttps('APNS_BASE_URL', e.APNS_BASE_URL);
    apns = {
      teamId: e.APNS_TEAM_ID,
      keyId: e.APNS_KEY_ID,
      privateKey: readFile('APNS_KEY_FILE', e.APNS_KEY_FILE, readApnsKey),
      bundleId: e.APNS_BUNDLE_ID,
      baseUrl: e.APNS_BASE_URL,
    };
  }
  return { fcm, apns };
}

/** The public origin of a login domain, e.g. http://grand-hotel.localhost:3000 */
export function publicOrigin(config: Config, domain: string): string {
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  const port = config.publicPort && config.publicPort !== defaultPort ? `:${config.publicPort}` : '';
  return `${config.publicScheme}://${domain}${port}`;
}
