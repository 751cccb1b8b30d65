import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { useEffect, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Loader, Page } from '../../../ui/page.tsx';
import { ProblemNotice } from '../components.tsx';
import { analyticsProps } from '../flow.ts';
import { useCountdown } from '../use-countdown.ts';
import { ApprovalFailureScreen } from './failure-screen.tsx';
import { MobileSetup } from './mobile-setup.tsx';
import { NumberPrompt } from './parts.tsx';
import { useNumberApproval } from './use-number-approval.ts';

/**
 * Replacing the primary device (one per account, SPEC §9): only after a fresh MFA check. If the
 * session passed one minutes ago the new phone is connected at once; otherwise the current
 * device approves a request first. The old device stops working when the new one connects.
 */
export function MobileReplaceScreen({
  status,
  onCancel,
}: {
  status: MfaStatusResponse;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const approval = useNumberApproval(status);
  const [connecting, setConnecting] = useState(false);
  const [seconds, startCountdown] = useCountdown();
  const device = status.factor?.deviceName ?? t('mfa.mobile.choose.title');
  const { state } = approval;

  useEffect(() => {
    if (state.phase === 'pending') startCountdown(state.challenge.expiresInSeconds);
    if (state.phase === 'approved') {
      void trackEvent('mfa_success', analyticsProps(status, 'smmobile'));
      setConnecting(true);
    }
  }, [state, startCountdown, status]);

  if (connecting) {
    return <MobileSetup status={status} replace onBack={onCancel} onChoose={onCancel} />;
  }

  if (state.phase === 'failed') {
    return (
      <ApprovalFailureScreen
        reason={state.reason}
        retryAfterSeconds={state.retryAfterSeconds}
        onRetry={() => void approval.start()}
        onCancel={() => {
          approval.cancel();
          onCancel();
        }}
        signInLinks={false}
      />
    );
  }

  const fresh = status.freshVerification;
  return (
    <Page key="mobile-replace" titleKey="mfa.titles.mobileReplace" heading={t('mfa.mobile.replace.heading')}>
      {state.phase === 'problem' ? <ProblemNotice problem={state.problem} /> : null}
      {state.phase === 'pending' ? (
        <NumberPrompt
          challenge={state.challenge}
          seconds={seconds}
          device={status.factor?.deviceName ?? null}
        />
      ) : state.phase === 'asking' || state.phase === 'approved' ? (
        <Loader label={t('mfa.mobile.verify.sending')} />
      ) : (
        <p>{t(fresh ? 'mfa.mobile.replace.fresh' : 'mfa.mobile.replace.body', { device })}</p>
      )}
      <div className="kc-mfa-actions">
        {fresh ? (
          <button type="button" className="kc-button" onClick={() => setConnecting(true)}>
            {t('mfa.mobile.replace.connect')}
          </button>
        ) : state.phase === 'idle' || state.phase === 'problem' ? (
          <button type="button" className="kc-button" onClick={() => void approval.start()}>
            {t('mfa.mobile.replace.send')}
          </button>
        ) : null}
        <button
          type="button"
          className="kc-button kc-button-secondary"
          onClick={() => {
            approval.cancel();
            onCancel();
          }}
        >
          {t('mfa.mobile.replace.cancel')}
        </button>
      </div>
    </Page>
  );
}
