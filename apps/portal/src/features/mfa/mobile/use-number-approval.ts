import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { useCallback, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { analyticsProps } from '../flow.ts';
import { describeMfaError, type MfaProblem } from '../mfa-errors.ts';
import { mobileApi, type NumberChallenge } from './api.ts';

/** SPEC §4 mobile MFA failure reasons: how a sign-in approval can end without success. */
export type ApprovalFailure = 'TIMEOUT' | 'REJECTED' | 'FAILED' | 'RATE_LIMITED';

export type ApprovalState =
  | { phase: 'idle' }
  | { phase: 'asking' }
  | { phase: 'pending'; challenge: NumberChallenge }
  | { phase: 'approved'; challengeId: string }
  | { phase: 'failed'; reason: ApprovalFailure; retryAfterSeconds: number | null }
  | { phase: 'problem'; problem: MfaProblem };

/**
 * If no final outcome arrived this long after the challenge's own expiry (a lost connection
 * the reconnects did not repair), the screen stops waiting and says it timed out.
 */
const outcomeGraceMs = 15_000;

/**
 * Asks the primary device to approve (flow numberChallenge) and follows the outcome over the
 * websocket. A refused, wrong or unanswered challenge reports mfa_failed once; the caller
 * reports success its own way (a sign-in, a reset, a replacement).
 */
export function useNumberApproval(status: MfaStatusResponse) {
  const [state, setState] = useState<ApprovalState>({ phase: 'idle' });
  const stop = useRef<(() => void) | null>(null);
  const guard = useRef<ReturnType<typeof setTimeout> | null>(null);

  const end = useCallback(() => {
    stop.current?.();
    stop.current = null;
    if (guard.current) clearTimeout(guard.current);
    guard.current = null;
  }, []);

  useEffect(() => end, [end]);

  const fail = useCallback(
    (reason: ApprovalFailure, retryAfterSeconds: number | null) => {
      end();
      if (reason !== 'RATE_LIMITED') void trackEvent('mfa_failed', analyticsProps(status, 'smmobile'));
      setState({ phase: 'failed', reason, retryAfterSeconds });
    },
    [end, status],
  );

  const start = useCallback(async () => {
    end();
    setState({ phase: 'asking' });
    let challenge: NumberChallenge;
    try {
      challenge = await mobileApi.numberChallenge();
    } catch (caught) {
      const problem = describeMfaError(caught);
      if (problem.pausesApprovals) {
        setState({
          phase: 'failed',
          reason: 'RATE_LIMITED',
          retryAfterSeconds: problem.retryAfterSeconds ?? null,
        });
      } else {
        setState({ phase: 'problem', problem });
      }
      return;
    }
    setState({ phase: 'pending', challenge });
    guard.current = setTimeout(
      () => fail('TIMEOUT', null),
      challenge.expiresInSeconds * 1000 + outcomeGraceMs,
    );
    stop.current = mobileApi.watchChallenge(challenge.id, {
      onData: (outcome) => {
        if (outcome.status === 'PENDING') return;
        if (outcome.status === 'APPROVED') {
          end();
          setState({ phase: 'approved', challengeId: challenge.id });
          return;
        }
        fail(outcome.status, outcome.retryAfterSeconds);
      },
      onError: (error) => {
        end();
        setState({ phase: 'problem', problem: describeMfaError(error) });
      },
    });
  }, [end, fail]);

  const cancel = useCallback(() => {
    end();
    setState({ phase: 'idle' });
  }, [end]);

  return { state, start, cancel };
}
