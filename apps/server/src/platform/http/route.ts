import { Readable } from 'node:stream';
import { type ErrorCode, errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { inStepSpan } from '../observability/spans.ts';
import { AppError } from '../shared/errors.ts';
import { assertSameOrigin } from './security.ts';
import { parseInput } from './validate.ts';

/**
 * One route, declared once: who may call it, what it takes, what it answers by status and which
 * error codes it can answer. `registerRoutes` runs the declaration (origin rule, tenant,
 * authentication, parsing, the answer's contract in tests), OpenAPI is generated from it
 * (openapi.ts), and the handler's arguments are typed by it. docs/architecture.md
 * "Routes" has a worked example.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a surface's routes are typed by, supplied by the surface (the kernel imports no
 * feature): the tenant a request resolves to, the principal of a session, the principal of an
 * admin token and what an admin route names as its scope.
 */
export interface RouteTypes {
  /** What every handler is given to work with (the surface's services). */
  deps: unknown;
  tenant: unknown;
  session: unknown;
  admin: unknown;
  scope: unknown;
}

/**
 * Who may call: anyone; a signed-in session (`session.required` without one); anyone, with the
 * session when there is one; an admin token whose operator the scope allows.
 */
export type RouteAuth<T extends RouteTypes> =
  | 'none'
  | 'session'
  | 'optional-session'
  | { readonly admin: T['scope'] };

/** A success status's schema; null when it answers no body (204, 304). */
export type ResponseSchemas = { readonly [status: number]: z.ZodType | null };

/** The declaration of a route, without its handler. */
export interface RouteShape<T extends RouteTypes> {
  readonly method: HttpMethod;
  /** Fastify style: `/api/user/:email/reset-password`; each `:name` is a key of `params`. */
  readonly path: string;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly auth: RouteAuth<T>;
  /**
   * `same-origin`: a state-changing call must come from this host's own pages (invariant 5),
   * refused with `common.forbidden_origin` before anything else.
   */
  readonly origin: 'same-origin' | 'any';
  /** `required`: the Host names a tenant, else `tenant.unknown_domain`. */
  readonly tenant: 'required' | 'none';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** A JSON body (or a form, with `bodyType`), parsed; a 400 naming the fields when it does not fit. */
  readonly body?: z.ZodType;
  /** How `body` arrives, for the OpenAPI document (default JSON). */
  readonly bodyType?: 'application/json' | 'application/x-www-form-urlencoded';
  /** Instead of `body`: the request body's own bytes, of one of these media types. */
  readonly raw?: readonly string[];
  /** The successful answers by status. */
  readonly responses: ResponseSchemas;
  /** `ndjson`: the handler yields JSON lines, each of the success schema (an export). */
  readonly format?: 'json' | 'ndjson';
  /** Every error code the route itself can answer (what the kernel adds is added for it). */
  readonly errors: readonly ErrorCode[];
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parts of a declaration that type its handler, each inferred on its own. */
export interface Parts {
  auth: unknown;
  tenant: 'required' | 'none';
  params: z.ZodObject | undefined;
  query: z.ZodObject | undefined;
  body: z.ZodType | undefined;
  raw: readonly string[] | undefined;
  responses: ResponseSchemas;
  format: 'json' | 'ndjson';
}

type SessionOf<T extends RouteTypes, A> = A extends 'session'
  ? T['session']
  : A extends 'optional-session'
    ? T['session'] | null
    : undefined;

/** The body of an answer of this schema; nothing for a status declared without one (204, 304). */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler of a body-less answer returns nothing at all.
type AnswerBody<S> = S extends z.ZodType ? z.output<S> : void;

/** The status a handler's plain return value is sent with: its route's success status. */
type DefaultStatus<R> = 200 extends keyof R
  ? 200
  : 201 extends keyof R
    ? 201
    : 202 extends keyof R
      ? 202
      : 204 extends keyof R
        ? 204
        : never;

/** An answer with another of the route's statuses than its default, made by `answer()`. */
export class Answer {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    this.status = status;
    this.body = body;
  }
}

/** What a handler is given, typed by its declaration. */
export interface RouteArgs<T extends RouteTypes, D extends Parts> {
  deps: T['deps'];
  request: FastifyRequest;
  reply: FastifyReply;
  params: Output<D['params']>;
  query: Output<D['query']>;
  body: D['raw'] extends readonly string[] ? Buffer : Output<D['body']>;
  tenant: D['tenant'] extends 'required' ? T['tenant'] : undefined;
  session: SessionOf<T, D['auth']>;
  caller: D['auth'] extends { readonly admin: unknown } ? T['admin'] : undefined;
  /** Answers another declared status than the default one: `answer(304, undefined)`. */
  answer<S extends keyof D['responses'] & number>(status: S, body: AnswerBody<D['responses'][S]>): Answer;
}

/** What the handler returns: the default status's body, or another status through `answer`. */
export type HandlerResult<D extends Parts> = D['format'] extends 'ndjson'
  ? AsyncIterable<string>
  : AnswerBody<D['responses'][DefaultStatus<D['responses']>]> | Answer;

/** The arguments before the input is parsed: for a limit that counts every request. */
export type BeforeInputArgs<T extends RouteTypes, D extends Parts> = Pick<
  RouteArgs<T, D>,
  'deps' | 'request' | 'reply' | 'tenant' | 'session' | 'caller'
>;

/** Arguments as the kernel holds them for any route (each definition's handler narrows them). */
export interface AnyRouteArgs<T extends RouteTypes> {
  deps: T['deps'];
  request: FastifyRequest;
  reply: FastifyReply;
  params: unknown;
  query: unknown;
  body: unknown;
  tenant: T['tenant'] | undefined;
  session: T['session'] | null | undefined;
  caller: T['admin'] | undefined;
  answer(status: number, body: unknown): Answer;
}

/**
 * A route as registerRoutes and the OpenAPI generator see it. Its functions are methods, so a
 * definition whose handler takes narrower arguments (its own params, body, …) is one of these.
 */
export interface RouteDefinition<T extends RouteTypes> extends RouteShape<T> {
  /** Runs after the tenant and authentication, before the input is parsed. */
  beforeInput?(args: AnyRouteArgs<T>): Promise<void>;
  handler(args: AnyRouteArgs<T>): Promise<unknown>;
}

/** A declaration whose parts are the type parameters the handler is typed by. */
type Declared<T extends RouteTypes, D extends Parts> = Omit<
  RouteShape<T>,
  'auth' | 'tenant' | 'params' | 'query' | 'body' | 'raw' | 'responses' | 'format'
> & {
  readonly auth: D['auth'];
  readonly tenant: D['tenant'];
  readonly params?: D['params'];
  readonly query?: D['query'];
  readonly body?: D['body'];
  readonly raw?: D['raw'];
  readonly responses: D['responses'];
  readonly format?: D['format'];
};

/**
 * Typed route declarations for one surface: `const { defineRoute } = routeKit<ApiTypes>()`.
 * The handler's `params`, `query`, `body`, `tenant`, `session` and `caller` are inferred from
 * the declaration, so a route needs no cast and no `!`.
 */
export function routeKit<T extends RouteTypes>() {
  function defineRoute<
    const A extends RouteAuth<T>,
    const Tn extends 'required' | 'none',
    const R extends ResponseSchemas,
    P extends z.ZodObject | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    const Raw extends readonly string[] | undefined = undefined,
    const F extends 'json' | 'ndjson' = 'json',
  >(
    definition: Declared<
      T,
      { auth: A; tenant: Tn; params: P; query: Q; body: B; raw: Raw; responses: R; format: F }
    > & {
      beforeInput?: (
        args: BeforeInputArgs<
          T,
          { auth: A; tenant: Tn; params: P; query: Q; body: B; raw: Raw; responses: R; format: F }
        >,
      ) => Promise<void>;
      handler: (
        args: RouteArgs<
          T,
          { auth: A; tenant: Tn; params: P; query: Q; body: B; raw: Raw; responses: R; format: F }
        >,
      ) => Promise<
        HandlerResult<{
          auth: A;
          tenant: Tn;
          params: P;
          query: Q;
          body: B;
          raw: Raw;
          responses: R;
          format: F;
        }>
      >;
    },
  ): RouteDefinition<T>;
  // The declaration above types the handler by the route; the kernel holds it as any route.
  function defineRoute(definition: RouteDefinition<T>): RouteDefinition<T> {
    return definition;
  }
  return { defineRoute };
}

/** What a surface supplies to run its routes: how a request's tenant and principals are found. */
export interface RouteSurface<T extends RouteTypes> {
  config: Config;
  deps: T['deps'];
  /** The tenant the request's Host names, or null. */
  tenantOf?: (request: FastifyRequest) => T['tenant'] | null;
  /** The session the request carries on its tenant, or null. */
  sessionOf?: (request: FastifyRequest, tenant: T['tenant'] | undefined) => Promise<T['session'] | null>;
  admin?: AdminAuthentication<T>;
}

export interface AdminAuthentication<T extends RouteTypes> {
  /**
   * Who the request's credentials name, checked as the request arrives (before its body is
   * read); throws when they name no one.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<T['admin']>;
  /** Throws unless the caller may act in the route's scope on what its path names. */
  authorize(caller: T['admin'], scope: T['scope'], params: unknown): void;
  /** The codes authentication and authorization can answer for a scope. */
  errors(scope: T['scope']): readonly ErrorCode[];
}

/** Codes any route can answer: malformed requests and the server's own trouble. */
export const universalErrors: readonly ErrorCode[] = [
  errorCodes.validationFailed,
  errorCodes.payloadTooLarge,
  errorCodes.uriTooLong,
  errorCodes.unsupportedMediaType,
  errorCodes.internal,
  errorCodes.unavailable,
  errorCodes.busy,
];

function isAdminAuth<T extends RouteTypes>(auth: RouteAuth<T>): auth is { readonly admin: T['scope'] } {
  return typeof auth === 'object';
}

/** Every code a route can answer: its own, what its origin rule, tenant and authentication add, and the universal ones. */
export function routeErrors<T extends RouteTypes>(
  route: RouteShape<T>,
  admin?: Pick<AdminAuthentication<T>, 'errors'>,
): ErrorCode[] {
  const codes = new Set<ErrorCode>(universalErrors);
  if (route.origin === 'same-origin') codes.add(errorCodes.forbiddenOrigin);
  if (route.tenant === 'required') codes.add(errorCodes.unknownDomain);
  if (route.auth === 'session') codes.add(errorCodes.sessionRequired);
  if (isAdminAuth(route.auth) && admin) for (const code of admin.errors(route.auth.admin)) codes.add(code);
  for (const code of route.errors) codes.add(code);
  return [...codes];
}

/** The status a plain return value is sent with (200, 201, 202 or 204, the first declared). */
export function successStatus(route: Pick<RouteShape<RouteTypes>, 'responses'>): number {
  const declared = Object.keys(route.responses).map(Number);
  const status = [200, 201, 202, 204].find((candidate) => declared.includes(candidate));
  if (status === undefined) throw new Error('a route declares no 200, 201, 202 or 204 answer');
  return status;
}

/** The `:name`s of a Fastify path. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
}

/** What the response contract check reads from a route's options (contract.ts). */
export interface RouteContract {
  responses: ResponseSchemas;
  /** Every code it can answer (routeErrors). */
  errors: ReadonlySet<ErrorCode>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route made by registerRoutes: what it may answer. */
    contract?: RouteContract;
  }
}

function checkDeclaration<T extends RouteTypes>(route: RouteDefinition<T>, surface: RouteSurface<T>): void {
  const name = `${route.method} ${route.path}`;
  const inPath = pathParameters(route.path).sort();
  const declared = Object.keys(route.params?.shape ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${name}: params (${declared.join(', ')}) are not the path's (${inPath.join(', ')})`);
  }
  if (route.body && route.raw) throw new Error(`${name}: a JSON body or raw bytes, not both`);
  if (route.tenant === 'required' && !surface.tenantOf) throw new Error(`${name}: no tenant resolver`);
  if ((route.auth === 'session' || route.auth === 'optional-session') && !surface.sessionOf) {
    throw new Error(`${name}: no session resolver`);
  }
  if (isAdminAuth(route.auth) && !surface.admin) throw new Error(`${name}: no admin authentication`);
  successStatus(route);
}

/**
 * Registers each route on `app`. Per request, in this order: the origin rule, the tenant, the
 * session (a required one), the path parameters, the admin scope (which may depend on them),
 * `beforeInput`, the query and body, an optional session; then the handler. An admin token is
 * checked as the request arrives, before its body is read (a 401, never a 400 or 413, without
 * one). Outside production the answer is checked against the declared status's schema and
 * a failure's code against the route's errors (contract.ts).
 */
export function registerRoutes<T extends RouteTypes>(
  app: FastifyInstance,
  routes: readonly RouteDefinition<T>[],
  surface: RouteSurface<T>,
): void {
  for (const route of routes) {
    checkDeclaration(route, surface);
    const admin = isAdminAuth(route.auth) ? surface.admin : undefined;
    const scope = isAdminAuth(route.auth) ? route.auth.admin : undefined;
    const callers = new WeakMap<FastifyRequest, T['admin']>();
    const status = successStatus(route);
    app.route({
      method: route.method,
      url: route.path,
      config: {
        contract: { responses: route.responses, errors: new Set(routeErrors(route, surface.admin)) },
      },
      ...(admin
        ? {
            onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
              callers.set(request, await admin.authenticate(request, reply));
            },
          }
        : {}),
      handler: async (request, reply) => {
        if (route.origin === 'same-origin') assertSameOrigin(request, surface.config);
        const tenant = route.tenant === 'required' ? requireTenant(request, surface) : undefined;
        const session = route.auth === 'session' ? await requireSession(request, tenant, surface) : undefined;
        const params = route.params ? parseInput(route.params, request.params) : undefined;
        const caller = admin ? callers.get(request) : undefined;
        if (admin) {
          if (caller === undefined) throw new Error('the admin caller was not authenticated');
          admin.authorize(caller, scope, params ?? {});
        }
        const args: AnyRouteArgs<T> = {
          deps: surface.deps,
          request,
          reply,
          params,
          query: undefined,
          body: undefined,
          tenant,
          session,
          caller,
          answer: (answerStatus, body) => new Answer(answerStatus, body),
        };
        if (route.beforeInput) await route.beforeInput(args);
        args.query = route.query ? parseInput(route.query, request.query) : undefined;
        args.body = route.raw
          ? rawBody(request)
          : route.body
            ? parseInput(route.body, request.body)
            : undefined;
        if (route.auth === 'optional-session' && surface.sessionOf) {
          args.session = await surface.sessionOf(request, tenant);
        }
        reply.status(status);
        const result = await inStepSpan(route.method, route.path, () => route.handler(args));
        if (reply.sent) return reply;
        if (route.format === 'ndjson' && isAsyncIterable(result)) {
          return reply.type('application/x-ndjson; charset=utf-8').send(Readable.from(result));
        }
        if (result instanceof Answer) {
          reply.status(result.status);
          return result.body === undefined ? reply.send() : reply.send(result.body);
        }
        return result === undefined ? reply.send() : reply.send(result);
      },
    });
  }
}

function requireTenant<T extends RouteTypes>(request: FastifyRequest, surface: RouteSurface<T>): T['tenant'] {
  const tenant = surface.tenantOf?.(request);
  if (tenant === null || tenant === undefined) throw new AppError(errorCodes.unknownDomain);
  return tenant;
}

async function requireSession<T extends RouteTypes>(
  request: FastifyRequest,
  tenant: T['tenant'] | undefined,
  surface: RouteSurface<T>,
): Promise<T['session']> {
  const session = surface.sessionOf ? await surface.sessionOf(request, tenant) : null;
  if (session === null || session === undefined) throw new AppError(errorCodes.sessionRequired);
  return session;
}

/** Raw bytes arrive as a Buffer from the surface's content type parser; anything else (JSON) is refused. */
function rawBody(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body)) throw new AppError(errorCodes.unsupportedMediaType);
  return request.body;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
