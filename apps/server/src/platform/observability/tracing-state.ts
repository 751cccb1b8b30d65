/**
 * Whether this process exports traces: set by otel.ts (loaded with `--import` before the app)
 * once its SDK started. Everything else asks here, so an instance without an OTLP endpoint
 * never loads the SDK and spends nothing on spans of its own.
 */
const flag = Symbol.for('keycard.tracing');
const shutdown = Symbol.for('keycard.tracing.shutdown');

type Global = Record<symbol, unknown>;

export function tracingEnabled(): boolean {
  return (globalThis as Global)[flag] === true;
}

export function markTracingEnabled(): void {
  (globalThis as Global)[flag] = true;
}

export function setTracingShutdown(stop: () => Promise<void>): void {
  (globalThis as Global)[shutdown] = stop;
}

/** Exports the spans still buffered and stops the SDK (at shutdown); nothing without tracing. */
export async function flushTracing(): Promise<void> {
  const stop = (globalThis as Global)[shutdown];
  if (typeof stop === 'function') await Promise.resolve(stop()).catch(() => undefined);
}
