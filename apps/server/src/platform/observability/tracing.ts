import { IncomingMessage } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { FastifyInstrumentation } from '@opentelemetry/instrumentation-fastify';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { markTracingEnabled, setTracingShutdown } from './tracing-state.ts';

/** The portal's per-action token (SPEC §7), when it looks like one: the same rule as the request id. */
const traceTokenPattern = /^[\w-]{8,64}$/;

/** The partner SSO page carries the partner's token in its path (SPEC §2), as app.ts's loggedPath. */
const partnerSsoPath = /^(\/partners\/[^/]+\/sso\/)[^/]+/;

/** A query string with every value replaced: `code=[redacted]&state=[redacted]`. */
export function redactedQuery(query: string): string {
  return [...new URLSearchParams(query).keys()]
    .map((name) => `${encodeURIComponent(name)}=[redacted]`)
    .join('&');
}

/** Requests not worth a trace: probes and the operators' metrics listener. */
function ignored(
  url: string | undefined,
  localPort: number | undefined,
  metricsPort: number | undefined,
): boolean {
  if (metricsPort !== undefined && localPort === metricsPort) return true;
  const path = (url ?? '').split('?')[0];
  return path === '/healthz' || path === '/readyz';
}

/**
 * Starts the OpenTelemetry SDK: traces only, exported over OTLP/HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), with the http, Fastify,
 * pg, ioredis and undici (fetch) instrumentations. Each incoming request is one trace unless
 * the caller sends a `traceparent` (then it joins the caller's); the portal's `x-trace-token`,
 * which its retries of one action share, is the span attribute `keycard.trace_token`, as it is
 * the `reqId` of the log lines. Standard OTEL_* variables apply (service name, sampler, headers).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  // This SDK exports traces; metrics are Prometheus' and logs stay on stdout.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ??= 'keycard';
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined;
  const sdk = new NodeSDK({
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => ignored(request.url, request.socket.localPort, metricsPort),
        requestHook: (span, request) => {
          if (!(request instanceof IncomingMessage)) return;
          // As in the logs: query strings carry codes, tokens and state, and the partner SSO
          // page's path its token; the span keeps the parameters' names and the path's shape.
          const [path = '', query] = (request.url ?? '').split('?', 2);
          if (query !== undefined) span.setAttribute('url.query', redactedQuery(query));
          if (partnerSsoPath.test(path))
            span.setAttribute('url.path', path.replace(partnerSsoPath, '$1[redacted]'));
          const token = request.headers['x-trace-token'];
          if (typeof token === 'string' && traceTokenPattern.test(token)) {
            span.setAttribute('keycard.trace_token', token);
          }
        },
      }),
      new FastifyInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      // The command only: attempt counters' keys carry e-mail addresses (limit-keys.ts).
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  setTracingShutdown(() => sdk.shutdown());
  markTracingEnabled();
}
