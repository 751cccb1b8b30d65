import type { Kysely } from 'kysely';
import type { AnalyticsProvider } from '../features/analytics/index.ts';
import type { ProviderRegistry } from '../features/oidc/index.ts';
import type { TenantContext, TenantDirectory } from '../features/tenants/index.ts';
import type { Config } from '../platform/config.ts';
import type { Db } from '../platform/db/database.ts';
import type { Database } from '../platform/db/schema.ts';
import type { Transports } from '../platform/messaging/message.types.ts';
import type { OutboxWorker } from '../platform/messaging/outbox.worker.ts';
import type { RateLimiter } from '../platform/security/rate-limiter.ts';
import type { Clock } from '../platform/shared/clock.ts';
import type { Secrets } from '../platform/shared/secrets.ts';

/** What the server's features share; built once in createApp and passed explicitly. */
export interface Services {
  config: Config;
  database: Db;
  db: Kysely<Database>;
  secrets: Secrets;
  tenants: TenantDirectory;
  providers: ProviderRegistry;
  limiter: RateLimiter;
  clock: Clock;
  transports: Transports;
  /** Delivers the outbox; kick() it after committing a message. */
  outbox: OutboxWorker;
  /** The SMS and voice provider behind the sms and voice transports. */
  phone: { provider: string; available: boolean };
  /** Where analytics events of tenants with an analytics id are forwarded (ANALYTICS_URL). */
  analytics: AnalyticsProvider | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant resolved from the Host header (null when the host is unknown). */
    tenant: TenantContext | null;
  }
}
