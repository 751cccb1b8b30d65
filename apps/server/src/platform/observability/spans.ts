import { type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { stepOf } from './sign-in-steps.ts';
import { tracingEnabled } from './tracing-state.ts';

const tracer = trace.getTracer('keycard');

/** The code of an error the API answers with (`AppError`), else undefined. */
function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Runs a route's handler; a sign-in step's (login, authenticate, passkey, MFA verify,
 * authorize) inside a span of its own, `keycard.<step>`, whose children are the step's
 * queries and calls, with its outcome (`keycard.result`, `keycard.error_code`). Without
 * tracing, or for any other route, it is the handler alone.
 */
export function inStepSpan<T>(method: string, route: string, run: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return run();
  const step = stepOf(method, route);
  if (step === undefined) return run();
  return tracer.startActiveSpan(
    `keycard.${step}`,
    { attributes: { 'keycard.step': step, 'http.route': route } },
    async (span: Span) => {
      try {
        const result = await run();
        span.setAttribute('keycard.result', 'success');
        return result;
      } catch (error) {
        const code = codeOf(error);
        span.setAttribute('keycard.result', 'failure');
        if (code) span.setAttribute('keycard.error_code', code);
        else {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Fields for a JSON log line: the trace and span of the work it is written in, so a log line
 * leads to its trace (pino's `mixin`). Empty without tracing.
 */
export function traceLogFields(): Record<string, string> {
  if (!tracingEnabled()) return {};
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { traceId: context.traceId, spanId: context.spanId };
}
