/**
 * Tracing's start, loaded before the app: `node --import ./src/platform/observability/otel.ts
 * src/main.ts` (what `npm start` does). Without OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) it does nothing and loads nothing. With it, it registers
 * the ESM hook the instrumentations patch modules through — only for the modules they
 * instrument, so the app's own TypeScript is loaded as usual — and starts the SDK.
 */
import { register } from 'node:module';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: {
      include: ['fastify', 'pg', 'pg-pool', 'ioredis', 'undici', 'http', 'https', 'node:http', 'node:https'],
    },
  });
  const { startTracing } = await import('./tracing.ts');
  startTracing();
}
