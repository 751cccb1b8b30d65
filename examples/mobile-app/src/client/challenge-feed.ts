import { graphqlClientRules, mobileSocketCloseCodes } from '@keycard/contract/mobile-mfa';
import { createClient } from 'graphql-ws';
import { challengeFields, type DeviceChallenge, type TokenKeeper } from './device-api.ts';
import { GraphqlError } from './graphql.ts';

export type FeedState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface ChallengeFeed {
  stop(): void;
}

function closeCode(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined;
}

/** A subscription refused by the server arrives as its list of GraphQL errors: keep the first one's code. */
function fromGraphqlErrors(error: unknown): unknown {
  if (!Array.isArray(error) || error.length === 0) return error;
  const [first] = error as Array<{ message?: string; extensions?: { code?: unknown; status?: unknown } }>;
  const code = first?.extensions?.code;
  return new GraphqlError(
    first?.message ?? 'The subscription was refused',
    typeof code === 'string' ? code : 'graphql.error',
    typeof first?.extensions?.status === 'number' ? first.extensions.status : undefined,
  );
}

/** The websocket URL of the tenant's GraphQL endpoint (same path, ws: or wss:). */
export function socketUrl(endpoint: string): string {
  const url = new URL(endpoint);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * Subscribes `deviceChallenges` over graphql-transport-ws, authenticated by the device token in
 * connection_init. graphql-ws reconnects (10 attempts, SPEC §7) on its own, with a random
 * wait of one to four seconds at first so a restarted fleet is not hit by every device at once
 * — among others after a close with 1012 (Service Restart), which a Keycard instance sends
 * as it shuts down; `onConnected` runs after every (re)connection so the caller can read
 * pendingChallenges for what it missed.
 * graphql-ws treats 4401 as final, but for us it mostly means an expired token: sign in as the
 * device again and start over, once per refusal in a row.
 */
export function startChallengeFeed(input: {
  endpoint: string;
  tokens: TokenKeeper;
  onChallenge(challenge: DeviceChallenge): void;
  /** `problem` says why the feed went offline: a GraphqlError, a close event, or a message. */
  onState(state: FeedState, problem?: unknown): void;
  onConnected(): void;
}): ChallengeFeed {
  let stopped = false;
  let unauthenticatedInARow = 0;
  let dispose: () => void = () => {};
  let loginError: unknown;

  function connect(): void {
    // Events of a client that already failed (its late 'closed', say) must not overwrite what
    // its failure reported, nor what a newer client says.
    let current = true;
    const client = createClient({
      url: socketUrl(input.endpoint),
      lazy: false,
      retryAttempts: graphqlClientRules.reconnectAttempts,
      connectionParams: async () => {
        try {
          return { deviceToken: await input.tokens.get() };
        } catch (error) {
          // graphql-ws only reports a generic client error; keep the login's own code for the screen.
          loginError = error;
          throw error;
        }
      },
      onNonLazyError: () => {},
      on: {
        connecting: (isRetry) => {
          if (current) input.onState(isRetry ? 'reconnecting' : 'connecting');
        },
        connected: () => {
          if (!current) return;
          unauthenticatedInARow = 0;
          loginError = undefined;
          input.onState('connected');
          input.onConnected();
        },
        closed: () => {
          if (current && !stopped) input.onState('reconnecting');
        },
      },
    });
    const unsubscribe = client.subscribe<{ deviceChallenges: DeviceChallenge }>(
      { query: `subscription DeviceChallenges { deviceChallenges { ${challengeFields} } }` },
      {
        next: (result) => {
          if (result.data?.deviceChallenges) input.onChallenge(result.data.deviceChallenges);
        },
        error: (error) => {
          if (stopped || !current) return;
          current = false;
          void client.dispose();
          if (closeCode(error) === mobileSocketCloseCodes.unauthenticated && unauthenticatedInARow === 0) {
            unauthenticatedInARow += 1;
            input.tokens.drop();
            connect();
            return;
          }
          const code = closeCode(error);
          input.onState(
            'offline',
            loginError ?? (code === undefined ? fromGraphqlErrors(error) : `The socket closed with ${code}`),
          );
        },
        complete: () => {
          if (stopped || !current) return;
          current = false;
          void client.dispose();
          input.onState('offline', 'The server ended the subscription.');
        },
      },
    );
    dispose = () => {
      unsubscribe();
      void client.dispose();
    };
  }

  connect();
  return {
    stop() {
      stopped = true;
      dispose();
    },
  };
}
