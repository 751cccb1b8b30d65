import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { lifecycleRoutes } from './accounts/lifecycle.routes.ts';
import { loadLeakedPasswords } from './accounts/password.service.ts';
import { type AnalyticsProvider, createHttpAnalyticsProvider } from './analytics/analytics.provider.ts';
import { analyticsRoutes } from './analytics/analytics.routes.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Services } from './http/context.ts';
import { installErrorHandling } from './http/errors.ts';
import { portalRoutes } from './http/portal.ts';
import { installSecurity } from './http/security.ts';
import { loginRoutes } from './login/login.routes.ts';
import { devOutboxRoutes } from './messaging/dev-outbox.routes.ts';
import type { Transports } from './messaging/message.types.ts';
import { OutboxWorker } from './messaging/outbox.worker.ts';
import {
  createPhoneTransports,
  outboxPageProvider,
  type PhoneProvider,
  unconfiguredPhoneProvider,
} from './messaging/phone/phone-provider.ts';
import { createTwilioProvider } from './messaging/phone/twilio.provider.ts';
import { captureTransport, createSmtpTransport } from './messaging/transports.ts';
import { mfaRoutes } from './mfa/mfa.routes.ts';
import { oidcRoutes } from './oidc/oidc.routes.ts';
import { ProviderRegistry } from './oidc/provider-registry.ts';
import { SqlRateLimiter } from './security/rate-limiter.ts';
import { RedisRateLimiter } from './security/redis-rate-limiter.ts';
import { sessionRoutes } from './sessions/session.routes.ts';
import { type Clock, systemClock } from './shared/clock.ts';
import type { Secrets } from './shared/secrets.ts';
import { tenantRoutes } from './tenants/tenant.routes.ts';
import { TenantDirectory } from './tenants/tenant.service.ts';

export const defaultPortalDist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../portal/dist',
);

export interface AppOptions {
  config: Config;
  database: Db;
  secrets: Secrets;
  clock?: Clock;
  /** Overrides the transports chosen from the configuration (tests plug in their own). */
  transports?: Partial<Transports>;
  /** Overrides the analytics provider chosen from ANALYTICS_URL (tests plug in their own). */
  analytics?: AnalyticsProvider;
  portalDist?: string;
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them to prove what is never logged. */
  logStream?: { write(line: string): void };
}

/** Paths whose values must never reach a log line. */
const redactedPaths = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

export async function createApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
  const { config, database, secrets } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: { paths: redactedPaths, censor: '[redacted]' },
            // Query strings carry tokens and codes (SPEC routes): log the path only.
            serializers: {
              req: (req) => ({ method: req.method, path: req.url.split('?')[0], host: req.host, ip: req.ip }),
            },
          },
    trustProxy: config.trustProxy,
    // The portal sends a trace token with every call (SPEC §7); it becomes the request id in
    // the logs when it looks like one, so a support case can be followed end to end.
    requestIdHeader: false,
    genReqId: (req) => {
      const trace = req.headers['x-trace-token'];
      return typeof trace === 'string' && /^[\w-]{8,64}$/.test(trace) ? trace : randomUUID();
    },
    // Router-level failures (over-long parameters, bad URL encoding) get our error shape too.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      (reply as FastifyReply)
        .status(status)
        .send({ code: 'common.validation_failed', message: 'The request URL is not valid.' });
    },
    bodyLimit: 64 * 1024,
    // Path parameters carry e-mail addresses (up to 254 characters, more when encoded).
    routerOptions: { maxParamLength: 800 },
  });

  const tenants = new TenantDirectory(database.kysely);
  // SMS and voice: Twilio when configured; else the local outbox page (embedded mode only).
  const phoneProvider: PhoneProvider = config.twilio
    ? createTwilioProvider(config.twilio)
    : config.embedded
      ? outboxPageProvider
      : unconfiguredPhoneProvider;
  const phoneTransports = createPhoneTransports(phoneProvider, clock);
  const transports: Transports = {
    email: config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : captureTransport,
    sms: phoneTransports.sms,
    voice: phoneTransports.voice,
    ...options.transports,
  };
  const services: Services = {
    config,
    database,
    db: database.kysely,
    secrets,
    tenants,
    providers: new ProviderRegistry({ config, db: database.kysely, secrets, tenants, clock }),
    limiter: config.redisUrl ? new RedisRateLimiter(config.redisUrl) : new SqlRateLimiter(database.kysely),
    clock,
    transports,
    outbox: new OutboxWorker({ db: database.kysely, transports, clock, log: app.log }),
    phone: {
      provider: options.transports?.sms ? 'custom' : phoneProvider.name,
      available: phoneProvider !== unconfiguredPhoneProvider || options.transports?.sms !== undefined,
    },
    analytics:
      options.analytics ??
      (config.analyticsUrl ? createHttpAnalyticsProvider(config.analyticsUrl) : undefined),
  };
  void loadLeakedPasswords();
  app.addHook('onClose', async () => {
    await services.outbox.stop();
    if (services.limiter instanceof RedisRateLimiter) await services.limiter.close();
  });

  await app.register(fastifyCookie, { secret: secrets.cookieKeys });
  app.decorateRequest('tenant', null);
  app.addHook('onRequest', async (request) => {
    const pathname = request.url;
    if (pathname.startsWith('/api/') || pathname.startsWith('/oidc')) {
      request.tenant = await tenants.resolveHost(request.host);
    }
  });
  installSecurity(app, config);
  installErrorHandling(app);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.kysely.selectFrom('tenants').select('code').limit(1).execute();
      return { status: 'ready', database: database.engine };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  await app.register(tenantRoutes, services);
  await app.register(loginRoutes, services);
  await app.register(sessionRoutes, services);
  await app.register(lifecycleRoutes, services);
  await app.register(mfaRoutes, services);
  await app.register(analyticsRoutes, services);
  await app.register(oidcRoutes, services);
  await app.register(devOutboxRoutes, services);
  await app.register(portalRoutes, { distDir: options.portalDist ?? defaultPortalDist });

  return { app, services };
}
