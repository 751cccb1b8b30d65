/** The idempotency feature's public face: what other features and the surfaces may use. */
export { sweepIdempotencyKeys } from './idempotency.service.ts';
export { idempotent } from './idempotent.ts';
