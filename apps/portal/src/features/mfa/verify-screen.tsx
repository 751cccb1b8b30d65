import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { Checkbox } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { ProblemNotice, ProofField, ResendControls } from './components.tsx';
import { useMfaVerification } from './use-mfa-verification.ts';

/** SPEC §2 'Enter code at login': the code of the enrolled method, or a recovery code. */
export function VerifyScreen({ status }: { status: MfaStatusResponse }) {
  const { t } = useTranslation();
  const branding = useBranding();
  const flow = useMfaVerification(status);
  const { factor, isPhone, mode, channel, problem, entry } = flow;
  const { locked } = entry;

  const issuer = branding?.theme.name ?? t('common.appName');
  const intro =
    factor.deliveryType === 'totp'
      ? t('mfa.verify.totp', { issuer })
      : flow.codeSent
        ? t(`mfa.verify.${channel}`, { phone: factor.phone ?? '' })
        : problem
          ? ''
          : t('mfa.common.working');

  return (
    <Page key={mode} titleKey="mfa.titles.verify" heading={t('mfa.verify.heading')}>
      <ProblemNotice problem={problem} />
      {entry.lockEnded ? <p role="status">{t('mfa.errors.retryNow')}</p> : null}
      {mode === 'code' ? (
        <p role={isPhone ? 'status' : undefined}>
          {flow.resent ? `${t('mfa.resend.sent')} ` : ''}
          {intro}
        </p>
      ) : null}
      <form onSubmit={flow.submit} noValidate>
        <ProofField
          mode={mode}
          value={entry.value}
          onChange={entry.setValue}
          error={entry.fieldError}
          inputRef={entry.inputRef}
        />
        <Checkbox
          label={t('mfa.common.trustDevice', { count: status.trustedDeviceDays })}
          checked={flow.trust}
          onChange={(event) => flow.setTrust(event.target.checked)}
        />
        <button type="submit" className="kc-button" disabled={flow.pending || locked}>
          {t('mfa.common.verify')}
        </button>
      </form>
      {isPhone && mode === 'code' && !locked ? (
        <ResendControls seconds={flow.seconds} busy={flow.pending} onResend={flow.resend} />
      ) : null}
      <div className="kc-links">
        {locked ? null : (
          <button type="button" className="kc-back" onClick={flow.switchMode}>
            {mode === 'code' ? t('mfa.verify.useRecovery') : t('mfa.verify.useCode')}
          </button>
        )}
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
