import { mfaErrors } from '@keycard/contract/errors';
import type { MfaProof, MfaResetResponse, MfaStatusResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { waitValues } from '../../lib/duration.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { mfaFlowKeys } from '../../lib/mfa-flow.ts';
import { flowStorage } from '../../lib/storage.ts';
import { LoadingPage, Page } from '../../ui/page.tsx';
import { mfaApi } from './api.ts';
import { enteredProof } from './code-format.ts';
import { ProblemNotice, ProofField, problemText } from './components.tsx';
import { analyticsProps } from './flow.ts';
import { describeMfaError, isErrorCode, type MfaProblem, wrongCodeErrors } from './mfa-errors.ts';
import { MobileResetApproval } from './mobile/reset-approval.tsx';
import { useCountdown } from './use-countdown.ts';
import './mfa.css';

/**
 * /mfa/reset (SPEC §2 'Reset MFA: confirm, then success with the option to set up again').
 * The user proves possession — a code of the enrolled method, for the partner app a request
 * approved on the device, or a recovery code — and the server removes the methods, recovery codes and trusted devices. Then on to the
 * mfaResetRedirectUri, which the server answers back only when it is registered, or set up again.
 */
export function MfaResetPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [status, setStatus] = useState<MfaStatusResponse | null>(null);
  const [done, setDone] = useState<MfaResetResponse | null>(null);
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [seconds, startCountdown] = useCountdown();
  // Checks are locked (too many wrong codes): nothing that needs a check is offered meanwhile.
  const [lockedFor, startLock] = useCountdown();
  const locked = lockedFor > 0;
  const [lockEnded, setLockEnded] = useState(false);
  const wasLocked = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  // When the lock runs out, its message goes and the screen says a code may be entered again.
  useEffect(() => {
    if (locked) {
      wasLocked.current = true;
      return;
    }
    if (!wasLocked.current) return;
    wasLocked.current = false;
    setProblem(null);
    setLockEnded(true);
  }, [locked]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mfaApi
      .status()
      .then(setStatus)
      .catch((caught: unknown) =>
        navigate(describeMfaError(caught).signedOut ? paths.root : paths.error, { replace: true }),
      );
  }, [navigate]);

  if (!status) return <LoadingPage titleKey="mfa.titles.reset" label={t('common.loading')} />;
  const factor = status.factor;
  const isMobile = factor?.deliveryType === 'smmobile';
  const isPhone = factor?.deliveryType === 'sms' || factor?.deliveryType === 'voice';

  async function sendCode() {
    if (!factor) return;
    setPending(true);
    setProblem(null);
    try {
      const channel: PhoneDeliveryType = factor.deliveryType === 'voice' ? 'voice' : 'sms';
      const answer = await mfaApi.sendPhoneCode(channel);
      setSentTo(answer.phone);
      startCountdown(answer.resendInSeconds);
      inputRef.current?.focus();
    } catch (caught) {
      const described = describeMfaError(caught);
      if (isErrorCode(caught, mfaErrors.resendTooSoon) && described.retryAfterSeconds) {
        startCountdown(described.retryAfterSeconds);
      } else {
        setProblem(described);
        // Too many codes sent: no new one is offered before the wait it names has passed.
        if (described.retryAfterSeconds) startCountdown(described.retryAfterSeconds);
      }
    } finally {
      setPending(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!factor) return;
    const entered = enteredProof(mode, value);
    if (entered === null) {
      setFieldError(t(mode === 'code' ? 'mfa.errors.codeFormat' : 'mfa.errors.recoveryFormat'));
      inputRef.current?.focus();
      return;
    }
    const codeType = factor.deliveryType;
    const proof: MfaProof =
      mode === 'code' && codeType !== 'smmobile'
        ? { code: entered, deliveryType: codeType }
        : { recoveryCode: entered };
    setPending(true);
    setFieldError(undefined);
    setProblem(null);
    setLockEnded(false);
    try {
      const answer = await mfaApi.reset(proof, flowStorage.get(mfaFlowKeys.resetRedirectUri) ?? undefined);
      void trackEvent('mfa_reset', analyticsProps(status, factor.deliveryType));
      flowStorage.remove(mfaFlowKeys.resetRedirectUri);
      flowStorage.remove(mfaFlowKeys.purpose);
      setDone(answer);
    } catch (caught) {
      const described = describeMfaError(caught);
      if (described.signedOut) return navigate(paths.root, { replace: true });
      if (wrongCodeErrors.has((caught as { code?: string }).code ?? '')) {
        void trackEvent('mfa_failed', analyticsProps(status, factor.deliveryType));
      }
      if (isErrorCode(caught, mfaErrors.rateLimited)) {
        setProblem(described);
        if (described.retryAfterSeconds) startLock(described.retryAfterSeconds);
      } else setFieldError(problemText(t, described, i18n.language));
      setValue('');
      inputRef.current?.focus();
    } finally {
      setPending(false);
    }
  }

  if (done) {
    const complete = done.state === 'AUTHENTICATED' || done.state === 'MFA_REGISTRATION_RECOMMENDED';
    return (
      <Page key="done" titleKey="mfa.titles.resetDone" heading={t('mfa.reset.done.heading')}>
        <p>{t('mfa.reset.done.body')}</p>
        <div className="kc-mfa-actions">
          <Link className="kc-button" to={paths.mfa} state={{ setUp: true }} replace>
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
    return (
      <MobileResetApproval
        status={status}
        onUseRecovery={() => {
          setMode('recovery');
          setValue('');
          setFieldError(undefined);
        }}
        onDone={(answer) => {
          flowStorage.remove(mfaFlowKeys.resetRedirectUri);
          flowStorage.remove(mfaFlowKeys.purpose);
          setDone(answer);
        }}
      />
    );
  }

  return (
    <Page key={mode} titleKey="mfa.titles.reset" heading={t('mfa.reset.heading')}>
      <ProblemNotice problem={locked && problem ? { ...problem, retryAfterSeconds: lockedFor } : problem} />
      {lockEnded ? <p role="status">{t('mfa.errors.retryNow')}</p> : null}
      <p>{t(isMobile ? 'mfa.mobile.reset.body' : 'mfa.reset.body')}</p>
      <p>{t(isMobile ? 'mfa.mobile.reset.proof' : 'mfa.reset.proof')}</p>
      {isPhone && mode === 'code' && !locked ? (
        <div className="kc-mfa-resend">
          {sentTo ? <p role="status">{t(`mfa.verify.${factor.deliveryType}`, { phone: sentTo })}</p> : null}
          <button
            type="button"
            className="kc-button kc-button-secondary"
            onClick={sendCode}
            disabled={pending || seconds > 0}
          >
            {t('mfa.reset.sendCode')}
          </button>
          {seconds > 0 ? (
            <p className="kc-mfa-countdown">{t('mfa.resend.wait', waitValues(seconds, i18n.language))}</p>
          ) : null}
        </div>
      ) : null}
      <form onSubmit={submit} noValidate>
        <ProofField mode={mode} value={value} onChange={setValue} error={fieldError} inputRef={inputRef} />
        <button type="submit" className="kc-button" disabled={pending || locked}>
          {t('mfa.reset.confirm')}
        </button>
      </form>
      <div className="kc-links">
        {locked ? null : (
          <button
            type="button"
            className="kc-back"
            onClick={() => {
              setMode(mode === 'code' ? 'recovery' : 'code');
              setValue('');
              setFieldError(undefined);
            }}
          >
            {mode === 'code'
              ? t('mfa.verify.useRecovery')
              : isMobile
                ? t('mfa.mobile.verify.useApproval')
                : t('mfa.verify.useCode')}
          </button>
        )}
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
    </Page>
  );
}
