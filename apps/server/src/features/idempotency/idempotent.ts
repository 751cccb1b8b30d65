import {
  errorCodes,
  idempotencyKeyHeader,
  idempotencyKeyPattern,
  idempotencyReplayedHeader,
} from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { requestFingerprint, runOnce } from './idempotency.service.ts';

/**
 * HTTP glue for a route whose repetition could duplicate an effect (a mail, an SMS): with an
 * Idempotency-Key header, `run` runs once per tenant, route, subject and key, and a repeat is
 * answered what the first got (marked Idempotent-Replayed). Without the header it just runs:
 * older clients keep working. Call it after the checks that decide who may ask (origin,
 * tenant, session) and around those that spend something per attempt (captcha, limits).
 */
export async function idempotent<T>(
  deps: { db: Kysely<Database>; clock: Clock },
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { tenantCode: string; subject: string },
  run: () => Promise<T>,
): Promise<T> {
  const header = request.headers[idempotencyKeyHeader.toLowerCase()];
  if (header === undefined) return run();
  const key = Array.isArray(header) ? undefined : header;
  if (!key || !idempotencyKeyPattern.test(key)) throw new AppError(errorCodes.idempotencyKeyInvalid);
  const answer = await runOnce(
    deps.db,
    deps.clock,
    { ...scope, route: `${request.method} ${request.routeOptions.url}`, key },
    requestFingerprint(request.url, request.body),
    async () => {
      const body = await run();
      return { status: reply.statusCode, body };
    },
  );
  if (answer.replayed) {
    reply.code(answer.status);
    reply.header(idempotencyReplayedHeader, 'true');
  }
  return answer.body as T;
}
