import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { type ChallengeFeed, type FeedState, startChallengeFeed } from './challenge-feed.ts';
import type { TokenKeeper } from './device-api.ts';

/**
 * The feed against a stand-in server speaking graphql-transport-ws: a server that shuts down
 * for a restart closes the socket with 1012 (Service Restart, apps/server platform/http/
 * shutdown.ts), and the app must come back by itself — and read what it missed.
 */
describe('challenge feed across a server restart', () => {
  let server: WebSocketServer | undefined;
  let feed: ChallengeFeed | undefined;

  afterEach(async () => {
    feed?.stop();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  async function standIn(): Promise<{ endpoint: string; connections: () => number }> {
    let connections = 0;
    server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: () => 'graphql-transport-ws',
    });
    server.on('connection', (socket) => {
      connections++;
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      });
    });
    await new Promise((resolve) => server?.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return { endpoint: `http://127.0.0.1:${port}/api/mobile-beef/graphql`, connections: () => connections };
  }

  function closeEvery(code: number): void {
    for (const client of server?.clients ?? []) client.close(code, 'test');
  }

  function watch(endpoint: string) {
    const states: FeedState[] = [];
    let connected = 0;
    const tokens = { get: async () => 'device-token', drop: () => {} } as unknown as TokenKeeper;
    feed = startChallengeFeed({
      endpoint,
      tokens,
      onChallenge: () => {},
      onState: (state) => states.push(state),
      onConnected: () => {
        connected++;
      },
    });
    return { states, connected: () => connected };
  }

  async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMs) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('reconnects after a close with 1012 and reads what it missed', async () => {
    const { endpoint, connections } = await standIn();
    const seen = watch(endpoint);
    await until(() => seen.connected() === 1);
    closeEvery(1012);
    await until(() => seen.states.includes('reconnecting'));
    await until(() => seen.connected() === 2);
    expect(connections()).toBe(2);
    expect(seen.states.at(-1)).toBe('connected');
    expect(seen.states).not.toContain('offline');
  });

  it('goes offline on a close that says not to come back', async () => {
    const { endpoint } = await standIn();
    const seen = watch(endpoint);
    await until(() => seen.connected() === 1);
    closeEvery(4500);
    await until(() => seen.states.includes('offline'));
    expect(seen.connected()).toBe(1);
  });
});
