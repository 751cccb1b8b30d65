import { isDeepStrictEqual } from 'node:util';
import { apiErrorSchema, type ErrorCode } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';

export class ContractViolation extends Error {}

/** Paths whose routes must each declare what they answer (route.ts). */
const declaredPrefixes = ['/api/', '/admin/api/'];

/** Whether `payload` is exactly what `schema` makes of it: no missing field, wrong type or extra key. */
function checkAgainst(route: string, status: number, schema: z.ZodType, payload: unknown): void {
  const plain: unknown = JSON.parse(JSON.stringify(payload ?? null));
  const parsed = schema.safeParse(plain);
  if (!parsed.success) {
    throw new ContractViolation(`${route} answered ${status} off contract: ${parsed.error.message}`);
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data ?? null)), plain)) {
    throw new ContractViolation(`${route} answered ${status} with fields its contract does not have`);
  }
}

/**
 * A failure's code its route does not declare it can answer, as the violation to answer
 * instead; null when the route declares it (or is not declared with route.ts). The error
 * handler asks for thrown errors, which are not serialized through the hook below.
 */
export function undeclaredCode(request: FastifyRequest, code: ErrorCode): ContractViolation | null {
  const contract = request.routeOptions.config?.contract;
  if (!contract || contract.errors.has(code)) return null;
  return new ContractViolation(`${routeName(request)} answered ${code}, which it does not declare`);
}

function routeName(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
}

/**
 * Routes declare what they answer (route.ts), and outside production every answer of the API
 * and the admin API is checked against its declaration before it leaves: a success against
 * the schema of its status, a failure against `{ code, message, fields? }` with a code of the
 * catalogue that the route declares it can answer. Anything the schema would not return
 * unchanged (a missing field, a wrong type, an extra key), a status or a code the route does not
 * declare, fails the request with a 500, so every API test catches drift between the server,
 * its declarations and the contract the portal and console are typed by. Production skips the
 * check (the tests already made it).
 */
export function installResponseContract(app: FastifyInstance, options: { enforce: boolean }): void {
  if (!options.enforce) return;
  app.addHook('preSerialization', async (request, reply, payload) => {
    const contract = request.routeOptions.config?.contract;
    if (!contract && !declaredPrefixes.some((prefix) => request.url.startsWith(prefix))) return payload;
    const route = routeName(request);
    const status = reply.statusCode;
    if (status >= 400) {
      checkAgainst(route, status, apiErrorSchema, payload);
      const violation = undeclaredCode(request, apiErrorSchema.parse(payload).code);
      if (violation) throw violation;
      return payload;
    }
    if (!contract) throw new ContractViolation(`${route} declares no response schema`);
    const schema = contract.responses[status];
    if (schema === undefined)
      throw new ContractViolation(`${route} answered ${status}, which it does not declare`);
    if (schema === null)
      throw new ContractViolation(`${route} answered ${status} with a body it declares none for`);
    checkAgainst(route, status, schema, payload);
    return payload;
  });
}
