import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Loader, Page } from '../../../ui/page.tsx';
import { ProblemNotice, ProofField, TrustDevice, UseRecoveryCode } from '../components.tsx';
import { analyticsProps, useFinishMfa } from '../flow.ts';
import { useCountdown } from '../use-countdown.ts';
import { ApprovalFailureScreen } from './failure-screen.tsx';
import { NumberPrompt } from './parts.tsx';
import { useNumberApproval } from './use-number-approval.ts';
import { useRecoveryCodeSignIn } from './use-recovery-sign-in.ts';

/**
 * SPEC §2 'Authenticate by partner mobile app: number confirmation'. On arrival the portal
 * asks the primary device to approve (numberChallenge), shows the two-digit number to select
 * there with the challenge's 90-second countdown, and follows the outcome live. A recovery
 * code is the way in without the phone.
 */
export function MobileVerifyScreen({ status }: { status: MfaStatusResponse }) {
  const { t } = useTranslation();
  const finish = useFinishMfa(status, 'smmobile');
  const approval = useNumberApproval(status);
  const device = status.factor?.deviceName ?? null;
  const [mode, setMode] = useState<'approve' | 'recovery'>('approve');
  // Unticked: a shared front-desk PC must not become trusted unless someone chooses so.
  const [trust, setTrust] = useState(false);
  const [seconds, startCountdown] = useCountdown();
  const started = useRef(false);
  const trustRef = useRef(trust);
  trustRef.current = trust;
  const { state, start } = approval;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen, on arrival
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void trackEvent('mfa_verification_required', analyticsProps(status, 'smmobile'));
    void start();
  }, []);

  useEffect(() => {
    if (state.phase === 'pending') startCountdown(state.challenge.expiresInSeconds);
  }, [state, startCountdown]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the approval arrives
  useEffect(() => {
    if (state.phase !== 'approved') return;
    void trackEvent('mfa_success', analyticsProps(status, 'smmobile'));
    void finish(trustRef.current);
  }, [state.phase]);

  if (mode === 'recovery') {
    return (
      <RecoveryCodeSignIn
        status={status}
        trust={trust}
        onTrust={setTrust}
        onUseApproval={() => {
          setMode('approve');
          void start();
        }}
      />
    );
  }

  const switchToRecovery = () => {
    approval.cancel();
    setMode('recovery');
  };

  if (state.phase === 'failed') {
    return (
      <ApprovalFailureScreen
        reason={state.reason}
        retryAfterSeconds={state.retryAfterSeconds}
        onRetry={() => void start()}
        onUseRecovery={switchToRecovery}
      />
    );
  }

  return (
    <Page key="mobile-verify" titleKey="mfa.titles.mobileVerify" heading={t('mfa.mobile.verify.heading')}>
      {state.phase === 'problem' ? <ProblemNotice problem={state.problem} /> : null}
      {state.phase === 'pending' ? (
        <NumberPrompt challenge={state.challenge} seconds={seconds} device={device} />
      ) : state.phase === 'approved' ? (
        <Loader label={t('mfa.mobile.verify.approved')} />
      ) : state.phase === 'asking' || state.phase === 'idle' ? (
        <Loader label={t('mfa.mobile.verify.sending')} />
      ) : null}
      <TrustDevice days={status.trustedDeviceDays} checked={trust} onChange={setTrust} />
      {state.phase === 'problem' ? (
        <div className="kc-mfa-actions">
          <button type="button" className="kc-button" onClick={() => void start()}>
            {t('mfa.mobile.verify.newRequest')}
          </button>
        </div>
      ) : null}
      <div className="kc-links">
        <UseRecoveryCode onClick={switchToRecovery} />
        <Link className="kc-link" to={paths.mfaReset}>
          {t('mfa.verify.lostAccess')}
        </Link>
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}

/** Signing in with a recovery code instead of the phone (POST /api/mfa/verify, as for any factor). */
function RecoveryCodeSignIn({
  status,
  trust,
  onTrust,
  onUseApproval,
}: {
  status: MfaStatusResponse;
  trust: boolean;
  onTrust: (trust: boolean) => void;
  onUseApproval: () => void;
}) {
  const { t } = useTranslation();
  const { entry, submit } = useRecoveryCodeSignIn(status, trust);
  const { locked } = entry;

  return (
    <Page key="mobile-recovery" titleKey="mfa.titles.verify" heading={t('mfa.verify.heading')}>
      <ProblemNotice problem={entry.lockNotice} />
      <form onSubmit={submit} noValidate>
        <ProofField
          mode="recovery"
          value={entry.value}
          onChange={entry.setValue}
          error={entry.fieldError}
          inputRef={entry.inputRef}
        />
        <TrustDevice days={status.trustedDeviceDays} checked={trust} onChange={onTrust} />
        <div className="kc-mfa-actions">
          <button type="submit" className="kc-button" disabled={entry.pending || locked}>
            {t('mfa.common.verify')}
          </button>
        </div>
      </form>
      <div className="kc-links">
        <button type="button" className="kc-back" onClick={onUseApproval}>
          {t('mfa.mobile.verify.useApproval')}
        </button>
        {locked ? null : (
          <Link className="kc-link" to={paths.mfaReset}>
            {t('mfa.verify.lostAccess')}
          </Link>
        )}
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}
