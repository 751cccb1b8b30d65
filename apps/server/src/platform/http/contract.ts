import { isDeepStrictEqual } from 'node:util';
import { apiErrorSchema } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract schema of the route's successful answer. */
    response?: z.ZodType;
  }
}

/** Route options declaring what a route answers: `app.post(path, answers(schema), handler)`. */
export function answers<S extends z.ZodType>(schema: S): { config: { response: S } } {
  return { config: { response: schema } };
}

export class ContractViolation extends Error {}

/**
 * Routes declare what they answer, and outside production every answer of the API is checked
 * against its contract before it leaves: a success against the route's schema, a failure
 * against `{ code, message, fields? }` with a known code. Anything the schema would not
 * return unchanged (a missing field, a wrong type, an extra key) fails the request with a
 * 500, so every API test catches drift between the server and the contract the portal is
 * typed by. Production skips the check (the tests already made it).
 */
export function installResponseContract(app: FastifyInstance, options: { enforce: boolean }): void {
  if (!options.enforce) return;
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const schema = reply.statusCode >= 400 ? apiErrorSchema : request.routeOptions.config?.response;
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    if (!schema) throw new ContractViolation(`${route} declares no response schema`);
    const plain = JSON.parse(JSON.stringify(payload ?? null)) as unknown;
    const parsed = schema.safeParse(plain);
    if (!parsed.success) {
      throw new ContractViolation(
        `${route} answered ${reply.statusCode} off contract: ${parsed.error.message}`,
      );
    }
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data ?? null)), plain)) {
      throw new ContractViolation(
        `${route} answered ${reply.statusCode} with fields its contract does not have`,
      );
    }
    return payload;
  });
}
