import { useCallback, useEffect, useRef } from 'react';
import { ApiRequestError } from '../../lib/api.ts';
import { mfaApi } from './api.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';

const pollMs = 3000;
const watchMs = 60_000;

/**
 * Some failures are known only after the provider accepted the message — a busy line ends a
 * call seconds later (SPEC §8 voice code 107). After a send, this asks the server about the
 * newest code's delivery for a minute and reports a failure once.
 */
export function useDeliveryWatch(onFailure: (problem: MfaProblem) => void) {
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const report = useRef(onFailure);
  report.current = onFailure;
  const stop = useCallback(() => {
    clearInterval(timer.current);
    timer.current = undefined;
  }, []);
  const watch = useCallback(() => {
    stop();
    const started = Date.now();
    timer.current = setInterval(() => {
      if (Date.now() - started > watchMs) {
        stop();
        return;
      }
      mfaApi
        .delivery()
        .then((answer) => {
          if (answer.delivery !== 'failed' || !answer.error) return;
          stop();
          const { code, providerCode } = answer.error;
          report.current(
            describeMfaError(
              new ApiRequestError('answer', {
                code,
                message: code,
                ...(providerCode ? { fields: { providerCode } } : {}),
              }),
            ),
          );
        })
        .catch(() => undefined);
    }, pollMs);
  }, [stop]);
  useEffect(() => stop, [stop]);
  return { watch, stop };
}
