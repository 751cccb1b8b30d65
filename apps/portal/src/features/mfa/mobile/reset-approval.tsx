import type { MfaResetResponse, MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Loader, Page } from '../../../ui/page.tsx';
import { ProblemNotice, UseRecoveryCode } from '../components.tsx';
import { ApprovalFailureScreen } from './failure-screen.tsx';
import { NumberPrompt } from './parts.tsx';
import { useMobileResetApproval } from './use-mobile-reset-approval.ts';

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
  const { approval, state, seconds, problem, ask } = useMobileResetApproval(status, onDone);

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
          <button type="button" className="kc-button" onClick={ask}>
            {t('mfa.mobile.reset.send')}
          </button>
        </div>
      )}
      <div className="kc-links">
        <UseRecoveryCode
          onClick={() => {
            approval.cancel();
            onUseRecovery();
          }}
        />
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}
