// Idempotency keys (issue 11 item 5): no zod here, the portal imports this at run time.

/**
 * The request header carrying an idempotency key. The portal sends one on every call whose
 * repetition could duplicate an effect (a reset or activation mail, a verification mail, an
 * SMS or voice code), a fresh key per user action and the same key on each gateway retry of
 * that action; the server answers a repeat with the first answer instead of acting again.
 */
export const idempotencyKeyHeader = 'Idempotency-Key';

/** What a key may look like: the portal sends a UUID; other clients any 16–128 URL-safe characters. */
export const idempotencyKeyPattern = /^[A-Za-z0-9_-]{16,128}$/;

/** How long the server remembers a key and its answer. */
export const idempotencyKeyLifetimeHours = 24;

/** The answer header that marks a replay of an earlier answer. */
export const idempotencyReplayedHeader = 'Idempotent-Replayed';
