import { type ApiError, errorCodes } from '@keycard/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.ts';

const fastifyCodes: Record<string, { code: string; status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: errorCodes.payloadTooLarge,
    status: 413,
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: errorCodes.unsupportedMediaType,
    status: 415,
    message: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: errorCodes.validationFailed,
    status: 400,
    message: 'Invalid content length.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: errorCodes.validationFailed,
    status: 400,
    message: 'The JSON body is empty.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: errorCodes.validationFailed,
    status: 400,
    message: 'The body is not valid JSON.',
  },
};

/** Invariant 6: every failure is `{ code, message }`; a 5xx never leaks details. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ApiError;
    let status: number;
    if (error instanceof AppError) {
      status = error.status;
      body = { code: error.code, message: error.expose ? error.message : 'Something went wrong.' };
      if (error.fields) body.fields = error.fields;
    } else if (error.code && fastifyCodes[error.code]) {
      const known = fastifyCodes[error.code]!;
      status = known.status;
      body = { code: known.code, message: known.message };
    } else if (error instanceof SyntaxError || (error.statusCode === 400 && error.code?.startsWith('FST_'))) {
      status = 400;
      body = { code: errorCodes.validationFailed, message: 'The request is not valid.' };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { code: errorCodes.validationFailed, message: 'The request is not valid.' };
    } else {
      status = 500;
      body = { code: errorCodes.internal, message: 'Something went wrong.' };
    }
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(status).send(body);
  });
}
