import type { PhoneCodeSentResponse } from '@keycard/contract/mfa';
import { useState } from 'react';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';
import { useCountdown } from './use-countdown.ts';

/**
 * Sending a code by SMS or voice: pending, and the countdown before another may be asked for
 * (the answer's, or the wait a refusal names: no new code is offered before it has passed).
 * A code that went out moments ago (a reload) is waited for rather than sent again; any other
 * refusal goes to the screen's notice (`setProblem`), which a new send clears.
 */
export function useCodeSending(setProblem: (problem: MfaProblem | null) => void) {
  const [pending, setPending] = useState(false);
  const [seconds, startCountdown] = useCountdown();

  /** Answers the server's answer, 'onItsWay' for a code sent moments ago, null when refused. */
  async function send(
    call: () => Promise<PhoneCodeSentResponse>,
  ): Promise<PhoneCodeSentResponse | 'onItsWay' | null> {
    setPending(true);
    setProblem(null);
    try {
      const answer = await call();
      startCountdown(answer.resendInSeconds);
      return answer;
    } catch (caught) {
      const problem = describeMfaError(caught);
      if (problem.codeOnItsWay && problem.retryAfterSeconds) {
        startCountdown(problem.retryAfterSeconds);
        return 'onItsWay';
      }
      setProblem(problem);
      if (problem.retryAfterSeconds) startCountdown(problem.retryAfterSeconds);
      return null;
    } finally {
      setPending(false);
    }
  }

  return { pending, seconds, startCountdown, send };
}
