/** Injected time, so tests can move past expiries without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const DAY = 24 * 60 * 60 * 1000;
