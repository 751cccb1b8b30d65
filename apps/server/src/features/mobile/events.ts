import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Wake-ups for subscriptions (docs/mobile-mfa.md "Outcomes reach every instance"). A topic
 * names a row (setup:<id>, challenge:<id>, device:<id>); a publish says "read it again". The
 * truth is always the database: subscriptions also poll every second, so a lost notification
 * only delays an outcome. PostgreSQL LISTEN/NOTIFY when on PostgreSQL, Redis pub/sub when
 * REDIS_URL is set, in-process otherwise (one instance on SQLite).
 */
export interface MobileEvents {
  readonly kind: 'memory' | 'postgres' | 'redis';
  publish(topic: string): Promise<void>;
  /** Resolves at the next publish of the topic (any instance) or after timeoutMs. */
  wait(topic: string, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const channel = 'keycard_mobile';

class LocalWakeups {
  readonly emitter = new EventEmitter();

  constructor() {
    // Every open subscription waits on its topic: many listeners are normal here.
    this.emitter.setMaxListeners(0);
  }

  wait(topic: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off(topic, done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.emitter.once(topic, done);
    });
  }

  emit(topic: string): void {
    this.emitter.emit(topic);
  }
}

export function memoryEvents(): MobileEvents {
  const local = new LocalWakeups();
  return {
    kind: 'memory',
    publish: async (topic) => local.emit(topic),
    wait: (topic, timeoutMs) => local.wait(topic, timeoutMs),
    close: async () => {},
  };
}

/** A listening connection of its own; reconnects after a failure (polling covers the gap). */
export function postgresEvents(
  databaseUrl: string,
  log: { warn(obj: unknown, msg: string): void },
): MobileEvents {
  const local = new LocalWakeups();
  const notifier = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  notifier.on('error', (error) => log.warn({ err: error }, 'mobile events: notify connection failed'));
  let listener: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', (error) => {
      log.warn({ err: error }, 'mobile events: listen connection lost');
      if (listener === client) listener = null;
      void client.end().catch(() => {});
      scheduleReconnect();
    });
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) local.emit(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      if (closed) {
        await client.end();
        return;
      }
      listener = client;
    } catch (error) {
      log.warn({ err: error }, 'mobile events: cannot listen');
      void client.end().catch(() => {});
      scheduleReconnect();
    }
  };
  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, 1000);
    retry.unref();
  };
  const ready = connect();

  return {
    kind: 'postgres',
    publish: async (topic) => {
      local.emit(topic);
      try {
        await notifier.query('SELECT pg_notify($1, $2)', [channel, topic]);
      } catch (error) {
        log.warn({ err: error }, 'mobile events: notify failed');
      }
    },
    wait: async (topic, timeoutMs) => {
      await ready;
      return local.wait(topic, timeoutMs);
    },
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      await ready;
      await listener?.end().catch(() => {});
      await notifier.end().catch(() => {});
    },
  };
}

export function redisEvents(redisUrl: string, log: { warn(obj: unknown, msg: string): void }): MobileEvents {
  const local = new LocalWakeups();
  const options = { lazyConnect: false, maxRetriesPerRequest: 1 } as const;
  const publisher = new Redis(redisUrl, options);
  const subscriber = new Redis(redisUrl, options);
  for (const client of [publisher, subscriber]) {
    client.on('error', (error) => log.warn({ err: error }, 'mobile events: redis failed'));
  }
  subscriber.on('message', (name: string, topic: string) => {
    if (name === channel) local.emit(topic);
  });
  const ready = subscriber.subscribe(channel).catch((error: unknown) => {
    log.warn({ err: error }, 'mobile events: cannot subscribe');
  });
  return {
    kind: 'redis',
    publish: async (topic) => {
      local.emit(topic);
      try {
        await publisher.publish(channel, topic);
      } catch (error) {
        log.warn({ err: error }, 'mobile events: publish failed');
      }
    },
    wait: async (topic, timeoutMs) => {
      await ready;
      return local.wait(topic, timeoutMs);
    },
    close: async () => {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}

/** How often a subscription re-reads its row without a wake-up. */
export const pollIntervalMs = 1000;

/**
 * A subscription driven by the database: reads the state, yields it when it changed, stops
 * after a final one; between reads it waits for a wake-up on the topic or the poll interval.
 */
export async function* watchRow<T>(
  events: MobileEvents,
  topic: string,
  read: () => Promise<T>,
  options: { fingerprint: (value: T) => string; isFinal: (value: T) => boolean },
): AsyncGenerator<T> {
  let last: string | null = null;
  for (;;) {
    const value = await read();
    const fingerprint = options.fingerprint(value);
    if (fingerprint !== last) {
      last = fingerprint;
      yield value;
    }
    if (options.isFinal(value)) return;
    await events.wait(topic, pollIntervalMs);
  }
}
