import type { FastifyInstance } from 'fastify';

/**
 * How an instance leaves a load balancer's rotation without failing a request
 * (docs/operations.md#restarts-and-shutdown): on SIGTERM it first says it is no longer ready
 * (/readyz 503) while still serving everything, for long enough that the load balancer's
 * health checks notice and send no more; then it stops accepting, finishes what is in flight
 * (bounded), and closes what stays open.
 */
export class Lifecycle {
  #draining = false;
  #inFlight = 0;
  #idle: Array<() => void> = [];

  /** True from the shutdown signal on: /readyz answers 503 and answers carry `Connection: close`. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Requests being answered now (websocket upgrades aside: they are closed, not awaited). */
  get inFlight(): number {
    return this.#inFlight;
  }

  beginDrain(): void {
    this.#draining = true;
  }

  requestStarted(): void {
    this.#inFlight++;
  }

  requestEnded(): void {
    this.#inFlight--;
    if (this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Resolves once no request is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}

/**
 * Counts the requests in flight (until their answer is sent or their connection dropped), and
 * while draining closes each answered connection: a client's next request opens a new one,
 * which the load balancer sends to another instance.
 */
export function installLifecycle(app: FastifyInstance, lifecycle: Lifecycle): void {
  // Counted as the HTTP server parses a request, before any hook awaits anything; websocket
  // upgrades are 'upgrade' events, not 'request' ones.
  app.server.on('request', (_request, response) => {
    lifecycle.requestStarted();
    response.once('close', () => lifecycle.requestEnded());
  });
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close');
  });
}

/** Websocket close code of a server going away for a restart (RFC 6455 registry: 1012 Service Restart). */
export const serviceRestartCloseCode = 1012;
