import { type ApiError, type ErrorCode, errorCatalogue, errorCodes } from '@keycard/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { isOutage, outageRetryAfterSeconds } from '../shared/outage.ts';
import { undeclaredCode } from './contract.ts';

/** Fastify's own failures (body parsing, media type) mapped to our codes. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: errorCodes.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errorCodes.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: errorCodes.validationFailed,
  FST_ERR_CTP_EMPTY_JSON_BODY: errorCodes.validationFailed,
  FST_ERR_CTP_INVALID_JSON_BODY: errorCodes.validationFailed,
};

function answerOf(code: ErrorCode, fields?: Record<string, string>): { status: number; body: ApiError } {
  const { status, message } = errorCatalogue[code];
  return { status, body: fields ? { code, message, fields } : { code, message } };
}

/** The code and status of one of Fastify's own errors, when it is one. */
function fastifyFieldsOf(error: unknown): { code?: string | undefined; statusCode?: number | undefined } {
  if (typeof error !== 'object' || error === null) return {};
  return {
    code: 'code' in error && typeof error.code === 'string' ? error.code : undefined,
    statusCode: 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : undefined,
  };
}

/** What a failure answers: `{ code, message }` with the code's status; nothing of a 5xx's cause. */
export function errorAnswer(error: unknown): { status: number; body: ApiError } {
  if (error instanceof AppError) return answerOf(error.code, error.expose ? error.fields : undefined);
  // A database or Redis that cannot be reached is an outage, not a bug: 503, retried by the portal.
  if (isOutage(error)) return answerOf(errorCodes.unavailable);
  const { code, statusCode } = fastifyFieldsOf(error);
  if (code && fastifyCodes[code]) return answerOf(fastifyCodes[code]);
  if (statusCode === 414) return answerOf(errorCodes.uriTooLong);
  if (error instanceof SyntaxError || (statusCode && statusCode >= 400 && statusCode < 500)) {
    return answerOf(errorCodes.validationFailed);
  }
  return answerOf(errorCodes.internal);
}

/** Invariant 6: every failure is `{ code, message }`; a 5xx never leaks details. */
export function installErrorHandling(
  app: FastifyInstance,
  options: {
    /** The tenant's 404 when a write failed because its tenant was deleted meanwhile (tenants/tenant-gone.ts). */
    whenTenantGone?: (request: FastifyRequest, error: unknown) => Promise<ErrorCode | null>;
    /** Outside production: a code its route does not declare is a 500 (contract.ts). */
    enforceContract?: boolean;
  } = {},
): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const gone = options.whenTenantGone ? await options.whenTenantGone(request, error) : null;
    const { status, body } = gone ? answerOf(gone) : errorAnswer(error);
    const violation = options.enforceContract ? undeclaredCode(request, body.code) : null;
    if (violation) {
      request.log.error({ err: violation, code: errorCodes.internal }, 'request failed');
      const internal = answerOf(errorCodes.internal);
      return reply.status(internal.status).send(internal.body);
    }
    if (status >= 500 && body.code !== errorCodes.busy)
      request.log.error({ err: error, code: body.code }, 'request failed');
    // A refusal that knows when to come back says so (RFC 9110 §10.2.3), 503 included.
    const wait = error instanceof AppError ? error.fields?.retryAfterSeconds : undefined;
    if (wait && (status === 429 || status === 503)) reply.header('retry-after', wait);
    else if (body.code === errorCodes.unavailable && isOutage(error))
      reply.header('retry-after', String(outageRetryAfterSeconds));
    return reply.status(status).send(body);
  });
}
