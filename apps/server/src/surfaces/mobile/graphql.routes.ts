import fastifyWebsocket from '@fastify/websocket';
import { errorCodes, mobileErrors, mobileGraphqlPath, mobileSocketCloseCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type DocumentNode,
  execute,
  type GraphQLError,
  type GraphQLSchema,
  parse,
  subscribe,
  validate,
} from 'graphql';
import { handleProtocols, makeServer } from 'graphql-ws';
import type { WebSocket } from 'ws';
import type { DeviceRow, MobileDeps } from '../../features/mobile/index.ts';
import {
  authenticateDevice,
  type MobileEvents,
  memoryEvents,
  postgresEvents,
  redisEvents,
} from '../../features/mobile/index.ts';
import { sessionToken } from '../../features/sessions/index.ts';
import { loadSignIn, type SignIn } from '../../features/sign-in/index.ts';
import { ownOriginOf } from '../../platform/http/host.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { serviceRestartCloseCode } from '../../platform/http/shutdown.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';
import { checkDocument, codedError, formatError, httpAnswerOf, loadMobileSchema } from './graphql.ts';
import { attachResolvers, type MobileContext, mobileResolvers } from './resolvers.ts';

/**
 * The mobile-app MFA endpoint (issue 9, docs/mobile-mfa.md): GraphQL over POST and the
 * graphql-transport-ws protocol on one path of every login domain. HTTP and socket glue only:
 * who is calling (cookie and Origin for the portal, bearer token or connection_init for the
 * device) goes into the context; the resolvers call the services.
 */

/** Keep-alive pings on idle sockets, so proxies do not cut a subscription that waits. */
const keepAliveMs = 12_000;

function eventsFor(services: Services, log: FastifyInstance['log']): MobileEvents {
  const { config } = services;
  if (config.databaseUrl) return postgresEvents(config.databaseUrl, log);
  if (config.redisUrl) return redisEvents(config.redisUrl, log);
  return memoryEvents();
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([\w-]{1,128})$/.exec(header);
  return match?.[1];
}

function headerText(value: string | string[] | undefined, max: number): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

export async function mobileRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { config, db, clock } = services;
  const production = config.env === 'production';
  const events = eventsFor(services, app.log);
  app.addHook('onClose', async () => events.close());
  const deps: MobileDeps = {
    db,
    config,
    key: services.secrets.encryptionKey,
    clock,
    events,
    outbox: services.outbox,
    log: app.log,
  };
  const schema: GraphQLSchema = attachResolvers(loadMobileSchema(), mobileResolvers(deps));
  const logInternal = (error: unknown) => app.log.error({ err: error }, 'mobile graphql operation failed');
  const endpointOf = (request: FastifyRequest) => `${ownOriginOf(config, request)}${mobileGraphqlPath}`;
  const isAppOrigin = (origin: string | undefined) => !!origin && config.mobileAppOrigins.includes(origin);

  function baseContext(request: FastifyRequest) {
    return {
      tenant: requireTenant(request),
      endpoint: endpointOf(request),
      ipAddress: request.ip ?? null,
      userAgent: headerText(request.headers['user-agent'], 512),
    };
  }

  /** The portal's session: its cookie, from the tenant's own pages only (invariant 5). */
  async function portalSignIn(request: FastifyRequest): Promise<SignIn> {
    const tenant = requireTenant(request);
    const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
    if (!signIn) throw new AppError(errorCodes.sessionRequired);
    return signIn;
  }

  /** CORS for the web device app: its origins may call without credentials (no cookies). */
  function allowAppOrigin(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (isAppOrigin(origin)) reply.header('access-control-allow-origin', origin);
  }

  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024, handleProtocols },
    // A shutdown closes each socket with 1012 (Service Restart), which the device app's
    // graphql-ws client treats as passing and reconnects on — to another instance.
    preClose(done) {
      for (const client of this.websocketServer.clients) {
        client.close(serviceRestartCloseCode, 'Service restart');
      }
      this.websocketServer.close();
      done();
    },
  });

  app.options(mobileGraphqlPath, async (request, reply) => {
    allowAppOrigin(request, reply);
    if (isAppOrigin(request.headers.origin)) {
      reply.header('access-control-allow-methods', 'POST, GET');
      reply.header('access-control-allow-headers', 'content-type, authorization');
      reply.header('access-control-max-age', '600');
    }
    return reply.status(204).send();
  });

  app.post(mobileGraphqlPath, async (request, reply) => {
    allowAppOrigin(request, reply);
    const send = (status: number, body: Record<string, unknown>) =>
      reply
        .status(status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify(body));
    const base = baseContext(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) {
      return send(400, {
        errors: [formatError(codedError(mobileErrors.invalidQuery), logInternal, { production })],
      });
    }
    const checked = checkDocument(schema, body.query, body.operationName, { production });
    if (!checked.ok) return send(400, { errors: [formatError(checked.error, logInternal, { production })] });
    if (checked.operation.operation === 'subscription') {
      const error = codedError(mobileErrors.invalidQuery, {
        message: 'Subscriptions run over the websocket.',
      });
      return send(400, { errors: [formatError(error, logInternal, { production })] });
    }
    const variables = body.variables ?? undefined;
    if (
      variables !== undefined &&
      variables !== null &&
      (typeof variables !== 'object' || Array.isArray(variables))
    ) {
      return send(400, {
        errors: [formatError(codedError(mobileErrors.invalidQuery), logInternal, { production })],
      });
    }
    let device: Promise<DeviceRow> | undefined;
    const context: MobileContext = {
      ...base,
      portal: async () => {
        assertSameOrigin(request, config);
        return portalSignIn(request);
      },
      device: () => {
        device ??= authenticateDevice(db, base.tenant, bearerToken(request), clock.now());
        return device;
      },
    };
    const result = await execute({
      schema,
      document: checked.document,
      operationName: checked.operation.name?.value,
      variableValues: (variables as Record<string, unknown> | null) ?? undefined,
      contextValue: context,
    });
    const answer = httpAnswerOf(result, logInternal, { production });
    return send(answer.status, answer.body);
  });

  // Subscriptions: the graphql-transport-ws protocol. Who may open a socket is decided twice:
  // at the upgrade by Origin (cross-site websocket hijacking: a foreign page cannot ride the
  // browser's cookie), and in connection_init by credentials (close 4401 without them).
  // graphql-ws runs our graphql functions rather than its own import of the library: one copy
  // decides (a second copy, as a test runner may load, refuses a schema it did not build).
  const refusedDocument: DocumentNode = parse('{ __typename }');
  const wsServer = makeServer<
    Record<string, unknown> | undefined,
    { socket: WebSocket; request: FastifyRequest; auth?: MobileContext }
  >({
    schema,
    parse,
    validate,
    execute,
    subscribe,
    connectionInitWaitTimeout: 3000,
    onConnect: async (ctx) => {
      const { socket, request } = ctx.extra;
      try {
        const base = baseContext(request);
        const params = ctx.connectionParams ?? {};
        const deviceToken = typeof params.deviceToken === 'string' ? params.deviceToken : undefined;
        if (deviceToken !== undefined) {
          await authenticateDevice(db, base.tenant, deviceToken, clock.now());
          ctx.extra.auth = {
            ...base,
            portal: async () => {
              throw new AppError(errorCodes.sessionRequired);
            },
            // A socket outlives its token's hour: every use checks the token again.
            device: () => authenticateDevice(db, base.tenant, deviceToken, clock.now()),
          };
          return true;
        }
        // The portal: its own origin and its session cookie.
        if (request.headers.origin !== ownOriginOf(config, request))
          throw new AppError(errorCodes.sessionRequired);
        const signIn = await portalSignIn(request);
        ctx.extra.auth = {
          ...base,
          portal: async () => signIn,
          device: async () => {
            throw new AppError(mobileErrors.deviceUnauthenticated);
          },
        };
        return true;
      } catch (error) {
        if (!(error instanceof AppError)) logInternal(error);
        socket.close(mobileSocketCloseCodes.unauthenticated, 'Unauthenticated');
        return false;
      }
    },
    onSubscribe: (ctx, _id, payload) => {
      const checked = checkDocument(schema, payload.query, payload.operationName, { production });
      // A refused document runs nothing: onOperation answers its coded error instead.
      if (!checked.ok) return { schema, document: refusedDocument, contextValue: { refused: checked.error } };
      return {
        schema,
        document: checked.document,
        operationName: checked.operation.name?.value,
        variableValues: payload.variables ?? undefined,
        contextValue: ctx.extra.auth,
      };
    },
    onOperation: (_ctx, _id, _payload, args) => {
      const refused = (args.contextValue as { refused?: GraphQLError } | undefined)?.refused;
      return refused ? { errors: [refused] } : undefined;
    },
    onNext: (_ctx, _id, _payload, _args, result) => {
      if (!result.errors) return undefined;
      return {
        ...result,
        errors: result.errors.map((error) => formatError(error as GraphQLError, logInternal, { production })),
      };
    },
    onError: (_ctx, _id, _payload, errors) =>
      errors.map((error) => formatError(error, logInternal, { production })) as never,
  });

  app.route({
    method: 'GET',
    url: mobileGraphqlPath,
    // Before the upgrade: a page from another origin gets 403 and no socket.
    preValidation: async (request) => {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== ownOriginOf(config, request) && !isAppOrigin(origin)) {
        throw new AppError(errorCodes.forbiddenOrigin);
      }
      requireTenant(request);
    },
    handler: async (_request, reply) => {
      const error = codedError(mobileErrors.invalidQuery, {
        message: 'Use POST, or a websocket for subscriptions.',
      });
      return reply
        .status(400)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ errors: [formatError(error, logInternal, { production })] }));
    },
    wsHandler: (socket, request) => {
      const ping = setInterval(() => {
        if (socket.readyState === socket.OPEN) socket.ping();
      }, keepAliveMs);
      ping.unref();
      socket.on('error', (error) => app.log.warn({ err: error }, 'mobile socket error'));
      const closed = wsServer.opened(
        {
          protocol: socket.protocol,
          send: (data) =>
            new Promise<void>((resolve, reject) => {
              if (socket.readyState !== socket.OPEN) return resolve();
              socket.send(data, (error) => (error ? reject(error) : resolve()));
            }),
          close: (code, reason) => socket.close(code, reason),
          onMessage: (handle) =>
            socket.on('message', async (data) => {
              try {
                await handle(String(data));
              } catch (error) {
                logInternal(error);
                socket.close(1011, 'Internal error');
              }
            }),
        },
        { socket, request },
      );
      socket.once('close', (code, reason) => {
        clearInterval(ping);
        void closed(code, String(reason));
      });
    },
  });
}
