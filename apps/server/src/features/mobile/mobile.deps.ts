import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import type { MobileEvents } from './events.ts';

/** What the mobile-app MFA services need; built once by the routes, no request objects. */
export interface MobileDeps {
  db: Kysely<Database>;
  /** Where the account's security mail links point (its login domain's public origin). */
  config: Config;
  /** The encryption key: recovery codes are stored as keyed hashes. */
  key: Buffer;
  clock: Clock;
  events: MobileEvents;
  /** Starts delivering a committed outbox message (the challenge's push) at once. */
  outbox?: { kick(): unknown };
  log: { info(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
}
