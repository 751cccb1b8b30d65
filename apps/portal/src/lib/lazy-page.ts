import type { RouteObject } from '@keycard/web/router';
import type { ComponentType } from 'react';
import { ensureTexts } from './i18n.tsx';

// SPEC §9: a lazily loaded part that has not arrived in 120 s has failed to load.
export const lazyLoadTimeoutMs = 120_000;

/**
 * SPEC §8 "a failed load of a lazily loaded part raises a load-failed error": a chunk that
 * does not arrive in time, fails on the network, or is gone (404 after a deploy replaced the
 * build) — the route's error screen offers a reload, which fetches the page and its chunks
 * anew (a failed dynamic import may stay failed in the module map until then).
 */
export class LoadFailedError extends Error {
  constructor(cause?: unknown) {
    super('load-failed', cause === undefined ? undefined : { cause });
    this.name = 'LoadFailedError';
  }
}

export function isLoadFailed(error: unknown): error is LoadFailedError {
  return error instanceof LoadFailedError;
}

/**
 * A route's component from a lazily loaded chunk, failing as LoadFailedError. `coreTexts`: the
 * screen's texts are all in the core catalogue the entry carries (the login's password step),
 * so it does not wait for the rest of its language's catalogue.
 */
export function lazyPage<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  { coreTexts = false }: { coreTexts?: boolean } = {},
): RouteObject['lazy'] {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LoadFailedError()), lazyLoadTimeoutMs);
    });
    try {
      // The screen and its language's whole catalogue (English's flows' texts are not in the entry).
      const [module] = await Promise.race([
        Promise.all([load(), coreTexts ? undefined : ensureTexts()]),
        timeout,
      ]);
      return { Component: pick(module) };
    } catch (error) {
      throw isLoadFailed(error) ? error : new LoadFailedError(error);
    } finally {
      clearTimeout(timer);
    }
  };
}
