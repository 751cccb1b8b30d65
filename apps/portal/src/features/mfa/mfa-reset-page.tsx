import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { waitValues } from '../../lib/duration.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage, Page } from '../../ui/page.tsx';
import { ProblemNotice, ProofField, UseRecoveryCode } from './components.tsx';
import { MobileResetApproval } from './mobile/reset-approval.tsx';
import { useMfaReset } from './use-mfa-reset.ts';
import './mfa.css';

/**
 * /mfa/reset (SPEC §2 'Reset MFA: confirm, then success with the option to set up again').
 * The user proves possession — a code of the enrolled method, for the partner app a request
 * approved on the device, or a recovery code — and the server removes the methods, passkeys,
 * recovery codes and trusted devices. Then on to the mfaResetRedirectUri, which the server
 * answers back only when it is registered, or set up again.
 */
export function MfaResetPage() {
  const { t, i18n } = useTranslation();
  const flow = useMfaReset();
  const { status, factor, done, mode, problem, entry } = flow;
  const { locked } = entry;

  if (!status) return <LoadingPage titleKey="mfa.titles.reset" label={t('common.loading')} />;
  const isMobile = factor?.deliveryType === 'smmobile';
  const isPhone = factor?.deliveryType === 'sms' || factor?.deliveryType === 'voice';

  if (done) {
    const complete = done.state === 'AUTHENTICATED' || done.state === 'MFA_REGISTRATION_RECOMMENDED';
    return (
      <Page key="done" titleKey="mfa.titles.resetDone" heading={t('mfa.reset.done.heading')}>
        <p>{t('mfa.reset.done.body')}</p>
        <div className="kc-mfa-actions">
          <Link className="kc-button" to={paths.mfa} replace>
            {t('mfa.reset.done.setUpAgain')}
          </Link>
          {done.redirectUri ? (
            <a className="kc-button kc-button-secondary" href={done.redirectUri}>
              {t('mfa.reset.done.continue')}
            </a>
          ) : complete ? (
            <Link className="kc-button kc-button-secondary" to={paths.authenticated} replace>
              {t('mfa.reset.done.continue')}
            </Link>
          ) : null}
        </div>
      </Page>
    );
  }

  if (!factor) {
    return (
      <Page titleKey="mfa.titles.reset" heading={t('mfa.reset.heading')}>
        <p>{t('mfa.reset.notEnrolled')}</p>
        <Link className="kc-button" to={paths.mfa} replace>
          {t('mfa.common.continue')}
        </Link>
      </Page>
    );
  }

  if (isMobile && mode === 'code') {
    return <MobileResetApproval status={status} onUseRecovery={flow.useRecovery} onDone={flow.approved} />;
  }

  return (
    <Page key={mode} titleKey="mfa.titles.reset" heading={t('mfa.reset.heading')}>
      <ProblemNotice problem={problem} />
      {entry.lockEnded ? <p role="status">{t('mfa.errors.retryNow')}</p> : null}
      <p>{t(isMobile ? 'mfa.mobile.reset.body' : 'mfa.reset.body')}</p>
      <p>{t(isMobile ? 'mfa.mobile.reset.proof' : 'mfa.reset.proof')}</p>
      {isPhone && mode === 'code' && !locked ? (
        <div className="kc-mfa-resend">
          {flow.sentTo ? (
            <p role="status">
              {t(`mfa.verify.${factor.deliveryType === 'voice' ? 'voice' : 'sms'}`, { phone: flow.sentTo })}
            </p>
          ) : null}
          <button
            type="button"
            className="kc-button kc-button-secondary"
            onClick={flow.sendCode}
            disabled={flow.pending || flow.seconds > 0}
          >
            {t('mfa.reset.sendCode')}
          </button>
          {flow.seconds > 0 ? (
            <p className="kc-mfa-countdown">
              {t('mfa.resend.wait', waitValues(flow.seconds, i18n.language))}
            </p>
          ) : null}
        </div>
      ) : null}
      <form onSubmit={flow.submit} noValidate>
        <ProofField
          mode={mode}
          value={entry.value}
          onChange={entry.setValue}
          error={entry.fieldError}
          inputRef={entry.inputRef}
        />
        <div className="kc-mfa-actions">
          <button type="submit" className="kc-button" disabled={flow.pending || locked}>
            {t('mfa.reset.confirm')}
          </button>
        </div>
      </form>
      <div className="kc-links">
        {locked ? null : mode === 'code' ? (
          <UseRecoveryCode onClick={flow.switchMode} />
        ) : (
          <button type="button" className="kc-back" onClick={flow.switchMode}>
            {isMobile ? t('mfa.mobile.verify.useApproval') : t('mfa.verify.useCode')}
          </button>
        )}
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}
