import { mobileGraphqlPath } from '@keycard/contract';
import { WebSocket } from 'ws';

/**
 * A graphql-transport-ws client for tests (not a test file itself), written against the
 * protocol so a test sees exactly what a client would: the upgrade status, close codes, and
 * every message. The socket goes to 127.0.0.1:port with the tenant's Host header.
 */

interface Message {
  type: string;
  id?: string;
  payload?: unknown;
}

export type Opened = { socket: TestSocket } | { refused: number };

export class TestSocket {
  readonly ws: WebSocket;
  readonly messages: Message[] = [];
  readonly closed: Promise<number>;
  #waiters: (() => void)[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as Message);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        for (const wake of this.#waiters.splice(0)) wake();
        resolve(code);
      }),
    );
  }

  /** Opens a socket; answers it, or the HTTP status that refused the upgrade. */
  static open(
    port: number,
    host: string,
    options: { origin?: string; cookie?: string; protocol?: string } = {},
  ): Promise<Opened> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host };
      if (options.cookie) headers.cookie = options.cookie;
      const ws = new WebSocket(
        `ws://127.0.0.1:${port}${mobileGraphqlPath}`,
        options.protocol ?? 'graphql-transport-ws',
        {
          headers,
          ...(options.origin ? { origin: options.origin } : {}),
        },
      );
      const socket = new TestSocket(ws);
      ws.once('unexpected-response', (_request, response) => {
        resolve({ refused: response.statusCode ?? 0 });
        response.resume();
        ws.terminate();
      });
      ws.once('open', () => resolve({ socket }));
      ws.once('error', (error) => reject(error));
    });
  }

  send(message: Message): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The first message (from `from` on) that matches, waiting up to timeoutMs. */
  async next(predicate: (message: Message) => boolean, timeoutMs = 5000, from = 0): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(predicate);
      if (found) return found;
      if (this.ws.readyState === WebSocket.CLOSED)
        throw new Error(`socket closed waiting; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** connection_init; answers 'ack' or the close code. */
  async init(payload?: Record<string, unknown>): Promise<'ack' | number> {
    this.send({ type: 'connection_init', ...(payload ? { payload } : {}) });
    const result = await Promise.race([
      this.next((message) => message.type === 'connection_ack').then(() => 'ack' as const),
      this.closed,
    ]);
    return result;
  }

  subscribe(id: string, query: string, variables: Record<string, unknown> = {}): void {
    this.send({ type: 'subscribe', id, payload: { query, variables } });
  }

  /** The data of the n-th `next` message of a subscription (0-based). */
  async nextData(id: string, index = 0, timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const events = this.messages.filter((message) => message.id === id && message.type === 'next');
      const event = events[index];
      if (event) return event.payload as Record<string, unknown>;
      const failed = this.messages.find((message) => message.id === id && message.type === 'error');
      if (failed) return { errors: failed.payload };
      await this.next(() => true, Math.max(1, deadline - Date.now()), this.messages.length).catch((error) => {
        if (Date.now() >= deadline) throw error;
      });
    }
  }

  async completed(id: string, timeoutMs = 5000): Promise<void> {
    await this.next((message) => message.id === id && message.type === 'complete', timeoutMs);
  }

  close(): void {
    this.ws.close();
  }
}
