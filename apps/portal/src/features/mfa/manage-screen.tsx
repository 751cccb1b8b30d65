import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { useTranslation } from '../../lib/i18n.tsx';
import { Page } from '../../ui/page.tsx';
import { ProblemNotice, RecoveryCodes } from './components.tsx';
import { useRecoveryCodesRenewal } from './use-recovery-codes-renewal.ts';

/** An enrolled user who has passed MFA: what is set up, new recovery codes, reset. */
export function ManageScreen({ status, onReplace }: { status: MfaStatusResponse; onReplace: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { codes, problem, renew } = useRecoveryCodesRenewal();
  const factor = status.factor!;

  if (codes) {
    return (
      <Page key="codes" titleKey="mfa.titles.recoveryCodes" heading={t('mfa.recovery.regenerate')}>
        <RecoveryCodes
          codes={codes}
          intro={t('mfa.recovery.regenerated')}
          onContinue={() => navigate(paths.authenticated, { replace: true })}
        />
      </Page>
    );
  }

  return (
    <Page titleKey="mfa.titles.manage" heading={t('mfa.manage.heading')}>
      <ProblemNotice problem={problem} />
      <p>
        {factor.deliveryType === 'totp'
          ? t('mfa.manage.app')
          : factor.deliveryType === 'smmobile'
            ? t('mfa.mobile.manage.device', { device: factor.deviceName ?? t('mfa.mobile.choose.title') })
            : t('mfa.manage.phone', { phone: factor.phone ?? '' })}
      </p>
      <p>{t('mfa.recovery.remaining', { count: status.recoveryCodesRemaining })}</p>
      <div className="kc-mfa-actions">
        <Link className="kc-button" to={paths.authenticated} replace>
          {t('mfa.common.continue')}
        </Link>
        {status.freshVerification ? (
          <button type="button" className="kc-button kc-button-secondary" onClick={renew}>
            {t('mfa.recovery.regenerate')}
          </button>
        ) : null}
        {factor.deliveryType === 'smmobile' ? (
          <button type="button" className="kc-button kc-button-secondary" onClick={onReplace}>
            {t('mfa.mobile.manage.replace')}
          </button>
        ) : null}
      </div>
      <div className="kc-links">
        <Link className="kc-link" to={paths.mfaReset}>
          {t('mfa.manage.reset')}
        </Link>
        <Link className="kc-link" to={paths.account}>
          {t('account.landing.manage')}
        </Link>
      </div>
    </Page>
  );
}
