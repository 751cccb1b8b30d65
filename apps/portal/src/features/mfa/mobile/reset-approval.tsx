import type { MfaResetResponse, MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { mfaFlowKeys } from '../../../lib/mfa-flow.ts';
import { flowStorage } from '../../../lib/storage.ts';
import { Loader, Page } from '../../../ui/page.tsx';
import { mfaApi } from '../api.ts';
import { ProblemNotice } from '../components.tsx';
import { analyticsProps } from '../flow.ts';
import { describeMfaError, type MfaProblem } from '../mfa-errors.ts';
import { useCountdown } from '../use-countdown.ts';
import { ApprovalFailureScreen } from './failure-screen.tsx';
import { NumberPrompt } from './parts.tsx';
import { useNumberApproval } from './use-number-approval.ts';

/**
 * Resetting MFA when the factor is the partner app: the proof is a request approved on the
 * device (the number challenge, the session's fresh check), or a recovery code (the page's
 * other mode, for a lost phone).
 */
export function MobileResetApproval({
  status,
  onUseRecovery,
  onDone,
}: {
  status: MfaStatusResponse;
  onUseRecovery: () => void;
  onDone: (answer: MfaResetResponse) => void;
}) {
  const { t } = useTranslation();
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

  if (state.phase === 'failed') {
    return (
      <ApprovalFailureScreen
        reason={state.reason}
        retryAfterSeconds={state.retryAfterSeconds}
        onRetry={() => void approval.start()}
        onUseRecovery={onUseRecovery}
        signInLinks={false}
      />
    );
  }

  return (
    <Page key="reset-mobile" titleKey="mfa.titles.reset" heading={t('mfa.reset.heading')}>
      <ProblemNotice problem={state.phase === 'problem' ? state.problem : problem} />
      <p>{t('mfa.mobile.reset.body')}</p>
      <p>{t('mfa.mobile.reset.proof')}</p>
      {state.phase === 'pending' ? (
        <NumberPrompt
          challenge={state.challenge}
          seconds={seconds}
          device={status.factor?.deviceName ?? null}
        />
      ) : state.phase === 'asking' || state.phase === 'approved' ? (
        <Loader label={t(state.phase === 'approved' ? 'mfa.common.working' : 'mfa.mobile.verify.sending')} />
      ) : (
        <div className="kc-mfa-actions">
          <button
            type="button"
            className="kc-button"
            onClick={() => {
              setProblem(null);
              void approval.start();
            }}
          >
            {t('mfa.mobile.reset.send')}
          </button>
        </div>
      )}
      <div className="kc-links">
        <button
          type="button"
          className="kc-back"
          onClick={() => {
            approval.cancel();
            onUseRecovery();
          }}
        >
          {t('mfa.verify.useRecovery')}
        </button>
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}
