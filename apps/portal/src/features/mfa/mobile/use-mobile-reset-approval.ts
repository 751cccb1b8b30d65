import type { MfaResetResponse, MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { mfaFlowKeys } from '../../../lib/mfa-flow.ts';
import { flowStorage } from '../../../lib/storage.ts';
import { mfaApi } from '../api.ts';
import { analyticsProps } from '../flow.ts';
import { describeMfaError, type MfaProblem } from '../mfa-errors.ts';
import { useCountdown } from '../use-countdown.ts';
import { useNumberApproval } from './use-number-approval.ts';

/**
 * Resetting MFA with the partner app: a request approved on the device is the proof (the
 * session's fresh check), traded once for the reset. A refused reset is said on the screen
 * (the request is dropped, a new one may be asked for); the session gone starts again.
 */
export function useMobileResetApproval(
  status: MfaStatusResponse,
  onDone: (answer: MfaResetResponse) => void,
) {
  const navigate = useNavigate();
  const approval = useNumberApproval(status);
  const [seconds, startCountdown] = useCountdown();
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const resetting = useRef(false);
  const { state } = approval;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the approval's phase only
  useEffect(() => {
    if (state.phase === 'pending') startCountdown(state.challenge.expiresInSeconds);
    if (state.phase !== 'approved' || resetting.current) return;
    resetting.current = true;
    mfaApi
      .resetAfterApproval(state.challengeId, flowStorage.get(mfaFlowKeys.resetRedirectUri) ?? undefined)
      .then(
        (answer) => {
          void trackEvent('mfa_reset', analyticsProps(status, 'smmobile'));
          onDone(answer);
        },
        (caught: unknown) => {
          resetting.current = false;
          const described = describeMfaError(caught);
          if (described.signedOut) return navigate(paths.root, { replace: true });
          setProblem(described);
          approval.cancel();
        },
      );
  }, [state]);

  return {
    approval,
    state,
    seconds,
    problem,
    /** Asks the device again; the last refusal's notice goes. */
    ask: () => {
      setProblem(null);
      void approval.start();
    },
  };
}
