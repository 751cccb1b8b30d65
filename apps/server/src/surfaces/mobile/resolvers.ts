import type {
  ChallengeAnswer,
  DeviceChallenge,
  DeviceSession,
  MasterDevice,
  MasterDeviceSetup,
  MasterDeviceSetupEvent,
  MasterDeviceSetupResult,
  NumberChallenge,
  NumberChallengeOutcome,
} from '@keycard/contract';
import { errorCodes } from '@keycard/contract';
import { type GraphQLFieldConfig, type GraphQLSchema, isObjectType } from 'graphql';
import type { DeviceRow, MobileDeps } from '../../features/mobile/index.ts';
import {
  answerChallenge,
  challengeOutcome,
  deviceView,
  findActiveDevice,
  finishSetup,
  loginDevice,
  pendingChallenges,
  registerDevice,
  requestChallenge,
  setupEvent,
  setupTopic,
  startSetup,
  watchChallengeOutcome,
  watchDeviceChallenges,
  watchRow,
} from '../../features/mobile/index.ts';
import type { SignIn } from '../../features/sign-in/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { AppError } from '../../platform/shared/errors.ts';

/**
 * What one operation knows of its caller, built by the route from the POST or the socket:
 * the tenant, the endpoint URL (the `aud` device proofs must name), and how to authenticate
 * as the portal (session cookie, same origin) or as a device (access token) — each checked
 * only when an operation asks for it.
 */
export interface MobileContext {
  tenant: TenantContext;
  endpoint: string;
  ipAddress: string | null;
  userAgent: string | null;
  portal(): Promise<SignIn>;
  /** The device behind the access token, checked anew on each call (token expiry, replacement). */
  device(): Promise<DeviceRow>;
}

type Resolver<Args, Result> = (args: Args, context: MobileContext) => Promise<Result>;
type SubscriptionResolver<Args, Event> = (
  args: Args,
  context: MobileContext,
) => Promise<AsyncIterable<Event>>;
type NoArgs = Record<string, never>;

/** Every operation of mobile-mfa.graphql with its argument and result types. */
export interface MobileResolvers {
  Query: {
    masterDevice: Resolver<NoArgs, MasterDevice | null>;
    pendingChallenges: Resolver<NoArgs, DeviceChallenge[]>;
  };
  Mutation: {
    setupMasterDevice: Resolver<{ replace: boolean }, MasterDeviceSetup>;
    finishMasterDeviceSetup: Resolver<{ setupId: string }, MasterDeviceSetupResult>;
    numberChallenge: Resolver<NoArgs, NumberChallenge>;
    registerMasterDevice: Resolver<{ proof: string }, DeviceSession>;
    masterDeviceLogin: Resolver<{ proof: string }, DeviceSession>;
    answerNumberChallenge: Resolver<{ answer: string }, ChallengeAnswer>;
  };
  Subscription: {
    masterDeviceSetup: SubscriptionResolver<{ setupId: string }, MasterDeviceSetupEvent>;
    numberChallengeOutcome: SubscriptionResolver<{ challengeId: string }, NumberChallengeOutcome>;
    deviceChallenges: SubscriptionResolver<NoArgs, DeviceChallenge>;
  };
}

const maxIdLength = 64;

function checkId(id: string): string {
  if (id.length === 0 || id.length > maxIdLength) throw new AppError(errorCodes.validationFailed);
  return id;
}

/**
 * A failure in the middle of a subscription becomes its last event (an error the client sees
 * with its code) instead of an exception that would close the whole socket.
 */
async function* endingWithError<T>(source: AsyncIterable<T>): AsyncGenerator<T | Error> {
  try {
    yield* source;
  } catch (error) {
    yield error instanceof Error ? error : new Error(String(error));
  }
}

export function mobileResolvers(deps: MobileDeps): MobileResolvers {
  const now = () => deps.clock.now();
  return {
    Query: {
      masterDevice: async (_args, context) => {
        const signIn = await context.portal();
        const device = await findActiveDevice(deps.db, context.tenant.code, signIn.user.id);
        return device ? deviceView(device) : null;
      },
      pendingChallenges: async (_args, context) =>
        pendingChallenges(deps, context.tenant, await context.device(), now()),
    },
    Mutation: {
      setupMasterDevice: async ({ replace }, context) =>
        startSetup(
          deps,
          context.tenant,
          await context.portal(),
          { replace, endpoint: context.endpoint },
          now(),
        ),
      finishMasterDeviceSetup: async ({ setupId }, context) =>
        finishSetup(deps, context.tenant, await context.portal(), checkId(setupId), now()),
      numberChallenge: async (_args, context) =>
        requestChallenge(
          deps,
          context.tenant,
          await context.portal(),
          { ipAddress: context.ipAddress, userAgent: context.userAgent, endpoint: context.endpoint },
          now(),
        ),
      registerMasterDevice: async ({ proof }, context) =>
        registerDevice(deps, context.tenant, { proof, audience: context.endpoint }, now()),
      masterDeviceLogin: async ({ proof }, context) =>
        loginDevice(deps.db, context.tenant, { proof, audience: context.endpoint }, now()),
      answerNumberChallenge: async ({ answer }, context) =>
        answerChallenge(deps, context.tenant, { answer, audience: context.endpoint }, now()),
    },
    Subscription: {
      masterDeviceSetup: async ({ setupId }, context) => {
        const signIn = await context.portal();
        const read = () => setupEvent(deps, context.tenant, signIn.session.id, checkId(setupId), now());
        // The first read here: an unknown setup is an error of the subscribe, not of the stream.
        await read();
        return watchRow(deps.events, setupTopic(setupId), read, {
          fingerprint: (event) => event.status,
          isFinal: (event) => event.status !== 'WAITING',
        });
      },
      numberChallengeOutcome: async ({ challengeId }, context) => {
        const signIn = await context.portal();
        await challengeOutcome(deps, context.tenant, signIn.session.id, checkId(challengeId), now());
        return watchChallengeOutcome(deps, context.tenant, signIn.session.id, challengeId);
      },
      deviceChallenges: async (_args, context) => {
        await context.device();
        return watchDeviceChallenges(deps, context.tenant, () => context.device());
      },
    },
  };
}

/**
 * Puts the resolvers on the schema's root fields. Every root field of the schema must have
 * one and every resolver a field: a schema change without its resolver fails at start.
 */
export function attachResolvers(schema: GraphQLSchema, resolvers: MobileResolvers): GraphQLSchema {
  const roots = {
    Query: schema.getQueryType(),
    Mutation: schema.getMutationType(),
    Subscription: schema.getSubscriptionType(),
  } as const;
  for (const [rootName, type] of Object.entries(roots) as [
    keyof MobileResolvers,
    (typeof roots)[keyof typeof roots],
  ][]) {
    if (!type || !isObjectType(type)) throw new Error(`schema has no ${rootName} type`);
    const given = resolvers[rootName] as Record<
      string,
      (args: never, context: MobileContext) => Promise<unknown>
    >;
    const fields = type.getFields();
    for (const name of Object.keys(given)) {
      if (!fields[name]) throw new Error(`resolver ${rootName}.${name} has no field in the schema`);
    }
    for (const [name, field] of Object.entries(fields)) {
      const resolve = given[name];
      if (!resolve) throw new Error(`schema field ${rootName}.${name} has no resolver`);
      const config = field as unknown as GraphQLFieldConfig<unknown, MobileContext>;
      if (rootName === 'Subscription') {
        config.subscribe = async (_root, args, context) =>
          endingWithError((await resolve(args as never, context)) as AsyncIterable<unknown>);
        config.resolve = (event) => {
          if (event instanceof Error) throw event;
          return event;
        };
      } else {
        config.resolve = (_root, args, context) => resolve(args as never, context);
      }
    }
  }
  return schema;
}
