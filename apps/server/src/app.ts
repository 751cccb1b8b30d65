import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { loadLeakedPasswords, useHashingQueue, usePasswordHashing } from './features/accounts/index.ts';
import { type AnalyticsProvider, createHttpAnalyticsProvider } from './features/analytics/index.ts';
import { forgetPushToken } from './features/mobile/index.ts';
import { interactionOfBrowser, ProviderRegistry } from './features/oidc/index.ts';
import { sessionToken } from './features/sessions/index.ts';
import { loadSignIn } from './features/sign-in/index.ts';
import { TenantDirectory, tenantGoneAnswer } from './features/tenants/index.ts';
import type { Config } from './platform/config.ts';
import type { Db } from './platform/db/database.ts';
import { installResponseContract } from './platform/http/contract.ts';
import { errorAnswer, installErrorHandling } from './platform/http/errors.ts';
import { hostnameOf } from './platform/http/host.ts';
import { installSecurity } from './platform/http/security.ts';
import { installLifecycle, Lifecycle } from './platform/http/shutdown.ts';
import type { Transports } from './platform/messaging/message.types.ts';
import { OutboxWorker } from './platform/messaging/outbox.worker.ts';
import {
  createPhoneTransports,
  outboxPageProvider,
  type PhoneProvider,
  unconfiguredPhoneProvider,
} from './platform/messaging/phone/phone-provider.ts';
import { createTwilioProvider } from './platform/messaging/phone/twilio.provider.ts';
import { createPushTransportFromConfig } from './platform/messaging/push/push-transport.ts';
import { captureTransport, createSmtpTransport } from './platform/messaging/transports.ts';
import { MeteredLimiter } from './platform/observability/metered-limiter.ts';
import type { Metrics } from './platform/observability/metrics.ts';
import { installMetricsRoute } from './platform/observability/metrics-server.ts';
import { installRequestMetrics } from './platform/observability/request-metrics.ts';
import { outboxBacklog } from './platform/observability/sources.ts';
import { traceLogFields } from './platform/observability/spans.ts';
import { tracingEnabled } from './platform/observability/tracing-state.ts';
import { latestHashingQueue, observeHashing } from './platform/security/hashing-queue.ts';
import { type RateLimiter, SqlRateLimiter } from './platform/security/rate-limiter.ts';
import { RedisRateLimiter } from './platform/security/redis-rate-limiter.ts';
import { type Clock, systemClock } from './platform/shared/clock.ts';
import type { Secrets } from './platform/shared/secrets.ts';
import { adminApiRoutes } from './surfaces/admin/admin.routes.ts';
import { adminProviderConfiguration } from './surfaces/admin/admin-provider.ts';
import { themeAssetRoutes } from './surfaces/admin/assets.routes.ts';
import { apiPlugin } from './surfaces/api/api.routes.ts';
import type { Services } from './surfaces/context.ts';
import { mobileRoutes } from './surfaces/mobile/graphql.routes.ts';
import { oidcRoutes } from './surfaces/oidc/oidc.routes.ts';
import { ProviderPages } from './surfaces/oidc/pages.ts';
import { consoleRoutes } from './surfaces/web/console.ts';
import { devOutboxRoutes } from './surfaces/web/dev-outbox.routes.ts';
import { pageSourcesOf } from './surfaces/web/page-sources.ts';
import { loadPortalTemplate, portalRoutes } from './surfaces/web/portal.ts';
import { servedFontRoutes } from './surfaces/web/served-fonts.ts';

export const defaultPortalDist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../portal/dist',
);

export const defaultConsoleDist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../console/dist',
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
  /** The built admin console (default CONSOLE_DIST, else apps/console/dist). */
  consoleDist?: string;
  logger?: boolean;
  /** Render each portal page for its host (default); off only to measure the difference (bench). */
  firstPaint?: boolean;
  /** Where log lines go (default stdout); tests read them to prove what is never logged. */
  logStream?: { write(line: string): void };
  /** Prometheus metrics (main.ts makes them when METRICS_PORT or METRICS_TOKEN is set). */
  metrics?: Metrics;
  /** METRICS_TOKEN: /metrics on the operator host for this bearer token. */
  metricsToken?: string;
  /** The instance's shutdown state (main.ts drains it on SIGTERM); a fresh one by default. */
  lifecycle?: Lifecycle;
}

/** Paths whose values must never reach a log line. */
const redactedPaths = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/** The partner SSO page carries the partner's token in its path (SPEC §2): it is not logged. */
function loggedPath(path: string): string {
  return path.replace(/^(\/partners\/[^/]+\/sso\/)[^/]+/, '$1[redacted]');
}

export async function createApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; services: Services; lifecycle: Lifecycle }> {
  const { config, database, secrets } = options;
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const clock = options.clock ?? systemClock;
  usePasswordHashing(config.passwordHashing);
  useHashingQueue(config.hashingQueue);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: { paths: redactedPaths, censor: '[redacted]' },
            // With tracing on, each line names its trace and span (platform/observability).
            ...(tracingEnabled() ? { mixin: traceLogFields } : {}),
            // Query strings carry tokens and codes (SPEC routes): log the path only.
            serializers: {
              req: (req) => ({
                method: req.method,
                // The /oidc mount hands the provider a shortened URL; the log keeps the real one.
                path: loggedPath(
                  ((req.raw as { originalUrl?: string }).originalUrl ?? req.url).split('?')[0] ?? '',
                ),
                host: req.host,
                ip: req.ip,
              }),
            },
          },
    trustProxy: config.trustProxy,
    // One line per request (below), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // The portal sends a trace token with every call (SPEC §7); it becomes the request id in
    // the logs when it looks like one, so a support case can be followed end to end.
    requestIdHeader: false,
    genReqId: (req) => {
      const trace = req.headers['x-trace-token'];
      return typeof trace === 'string' && /^[\w-]{8,64}$/.test(trace) ? trace : randomUUID();
    },
    // Router-level failures (over-long parameters, bad URL encoding) get our error shape too.
    frameworkErrors: (error, _request, reply) => {
      const answer = errorAnswer(error);
      const { status, body } = answer.status < 500 ? answer : errorAnswer(new SyntaxError());
      (reply as FastifyReply).status(status).send(body);
    },
    bodyLimit: 64 * 1024,
    // Path parameters carry e-mail addresses (up to 254 characters, more when encoded).
    routerOptions: { maxParamLength: 800 },
  });

  const { metrics } = options;
  if (metrics) {
    installRequestMetrics(app, metrics, { tenantOf: (request) => request.tenant?.code });
    observeHashing(metrics.hashingObserver());
    metrics.useSources({
      outbox: outboxBacklog(database.kysely),
      hashingQueue: latestHashingQueue,
      now: () => clock.now(),
      ...(database.poolUse ? { pool: database.poolUse } : {}),
    });
    if (options.metricsToken) {
      installMetricsRoute(app, metrics, {
        token: options.metricsToken,
        onAdminHost: (request) => hostnameOf(request.host) === config.adminDomain,
      });
    }
  }

  const tenants = new TenantDirectory(database.kysely, {
    ...(metrics
      ? { observe: (cache, event, count) => metrics.cacheEvent(cache, event, undefined, count) }
      : {}),
  });
  const limiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(config.redisUrl)
    : new SqlRateLimiter(database.kysely);
  // SMS and voice: Twilio when configured; else the local outbox page (embedded mode only).
  const phoneProvider: PhoneProvider = config.twilio
    ? createTwilioProvider(config.twilio)
    : config.embedded
      ? outboxPageProvider
      : unconfiguredPhoneProvider;
  const phoneTransports = createPhoneTransports(phoneProvider, clock);
  const pushTransport = createPushTransportFromConfig(config, clock, (token) =>
    forgetPushToken(database.kysely, token),
  );
  const smtpTransport = config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : undefined;
  const transports: Transports = {
    email: smtpTransport ?? captureTransport,
    sms: phoneTransports.sms,
    voice: phoneTransports.voice,
    // Mobile-app MFA pushes: FCM and APNs when configured; else the local outbox page.
    push: pushTransport,
    ...options.transports,
  };
  const services: Services = {
    config,
    database,
    db: database.kysely,
    secrets,
    tenants,
    providers: new ProviderRegistry({
      config,
      db: database.kysely,
      secrets,
      tenants,
      clock,
      log: app.log,
      pages: new ProviderPages(loadPortalTemplate(options.portalDist ?? defaultPortalDist)),
      configure: adminProviderConfiguration(config, clock),
      ...(metrics ? { observe: (event, code) => metrics.cacheEvent('provider', event, code) } : {}),
    }),
    limiter: metrics ? new MeteredLimiter(limiter, metrics) : limiter,
    clock,
    transports,
    outbox: new OutboxWorker({
      db: database.kysely,
      transports,
      clock,
      log: app.log,
      ...(metrics ? { onDelivery: metrics.deliveryObserver() } : {}),
    }),
    phone: {
      provider: options.transports?.sms ? 'custom' : phoneProvider.name,
      available: phoneProvider !== unconfiguredPhoneProvider || options.transports?.sms !== undefined,
    },
    analytics:
      options.analytics ??
      (config.analyticsUrl ? createHttpAnalyticsProvider(config.analyticsUrl) : undefined),
  };
  void loadLeakedPasswords();
  // Tenants changed by another instance or the CLI reach this one within about a second.
  const stopWatching = tenants.watch((error) => app.log.warn({ err: error }, 'tenant poll failed'));
  app.addHook('onClose', async () => {
    stopWatching();
    await services.outbox.stop();
    // After the outbox: its pooled relay connections close once nothing is being sent.
    smtpTransport?.close();
    await pushTransport.close();
    await limiter.close();
  });

  // One log line per request, once it is answered: what was asked (the path, never the query
  // string: it carries tokens and codes), the status and how long it took.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: request,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });

  await app.register(fastifyCookie, { secret: secrets.cookieKeys });
  installSecurity(app, config, pageSourcesOf(services));
  installErrorHandling(app, {
    whenTenantGone: tenantGoneAnswer(database.kysely),
    enforceContract: config.env !== 'production',
  });
  installResponseContract(app, { enforce: config.env !== 'production' });
  app.decorateRequest('tenant', null);
  app.addHook('onRequest', async (request) => {
    const pathname = request.url;
    if (pathname.startsWith('/api/') || pathname.startsWith('/oidc')) {
      request.tenant = await tenants.resolveHost(request.host);
    }
  });

  // Requests in flight are counted for a shutdown; while it drains, answers close their connection.
  installLifecycle(app, lifecycle);

  app.get('/healthz', async () => ({ status: 'ok' }));
  // Ready when every store a request needs answers: the database, and Redis when configured;
  // never once a shutdown began (the load balancer stops sending before we stop accepting).
  app.get('/readyz', async (_request, reply) => {
    if (lifecycle.draining) {
      return reply.status(503).send({ status: 'draining', database: database.engine, checks: {} });
    }
    const checks: Record<string, 'ok' | 'unavailable'> = {};
    try {
      await database.kysely.selectFrom('tenants').select('code').limit(1).execute();
      checks.database = 'ok';
    } catch {
      checks.database = 'unavailable';
    }
    if (limiter instanceof RedisRateLimiter) {
      checks.redis = await limiter.ping().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      );
    }
    const ready = Object.values(checks).every((state) => state === 'ok');
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'unavailable', database: database.engine, checks });
  });

  await app.register(apiPlugin, services);
  await app.register(mobileRoutes, services);
  await app.register(adminApiRoutes, services);
  await app.register(themeAssetRoutes, services);
  await app.register(servedFontRoutes);
  await app.register(oidcRoutes, services);
  await app.register(devOutboxRoutes, services);
  await app.register(consoleRoutes, {
    distDir: options.consoleDist ?? config.consoleDist ?? defaultConsoleDist,
    adminDomain: config.adminDomain,
  });
  await app.register(portalRoutes, {
    distDir: options.portalDist ?? defaultPortalDist,
    adminDomain: config.adminDomain,
    firstPaint:
      options.firstPaint === false
        ? undefined
        : {
            resolveTenant: (host) => tenants.resolveHost(host),
            signedInAs: async (tenant, request) => {
              const signIn = await loadSignIn(
                services.db,
                tenant,
                sessionToken(request),
                services.clock.now(),
              );
              const { identity } = signIn ?? {};
              return identity?.state === 'AUTHENTICATED' && !identity.emailVerificationRequired
                ? identity.email
                : null;
            },
            secureCookies: config.publicScheme === 'https',
            uiLocales: async (tenant, iid, browser) => {
              const { provider } = await services.providers.get(tenant);
              const interaction = await interactionOfBrowser(provider, browser, iid);
              const value = interaction.params.ui_locales;
              return typeof value === 'string' ? value : undefined;
            },
          },
  });

  return { app, services, lifecycle };
}
