import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';
import { knownCode, mfaMethodOf, mfaSteps, signInSteps } from './sign-in-steps.ts';

export interface RequestMetricsOptions {
  /** The request's tenant code, for the tenant label (METRICS_TENANT_LABEL); unused otherwise. */
  tenantOf?: (request: FastifyRequest) => string | undefined;
}

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The error code each failed request answered (`{ code, message }`), read as it is serialized. */
const answeredCodes = new WeakMap<FastifyRequest, unknown>();

/**
 * Counts every answered request by its route template (Fastify's `routeOptions.url`, never
 * the path: `/api/user/:email/…`, not an address), method and status class, and its duration;
 * a failure by its error code; the sign-in and MFA routes by result and code. Synchronous
 * hooks, no awaits: a few counter increments per request. Register before the routes.
 */
export function installRequestMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  options: RequestMetricsOptions = {},
): void {
  const tenantOf = metrics.tenantLabel ? options.tenantOf : undefined;
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'object' && payload !== null && 'code' in payload) {
      answeredCodes.set(request, payload.code);
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = methods.has(request.method) ? request.method : 'other';
    const status = reply.statusCode;
    const statusClass = `${Math.floor(status / 100)}xx`;
    const tenant = tenantOf ? { tenant: tenantOf(request) ?? 'none' } : {};
    metrics.requests.inc({ route, method, status_class: statusClass, ...tenant });
    metrics.requestDuration.observe({ route, method, status_class: statusClass }, reply.elapsedTime / 1000);
    const failed = status >= 400;
    const code = failed ? knownCode(answeredCodes.get(request)) : 'none';
    if (failed && answeredCodes.has(request)) metrics.apiErrors.inc({ route, method, code, ...tenant });
    const key = `${method} ${route}`;
    const result = status >= 500 ? 'error' : failed ? 'failure' : 'success';
    const step = signInSteps.get(key);
    if (step) metrics.signIns.inc({ step, result, reason: code, ...tenant });
    const mfaStep = mfaSteps.get(key);
    if (mfaStep)
      metrics.mfa.inc({ method: mfaMethodOf(mfaStep, request.body), result, reason: code, ...tenant });
    done();
  });
}
