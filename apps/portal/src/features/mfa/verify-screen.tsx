import { mfaErrors } from '@keycard/contract/errors';
import type { MfaDeliveryType, MfaStatusResponse, PhoneDeliveryType } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { Checkbox } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { mfaApi } from './api.ts';
import { enteredProof } from './code-format.ts';
import { ProblemNotice, ProofField, problemText, ResendControls } from './components.tsx';
import { analyticsProps, useFinishMfa } from './flow.ts';
import { describeMfaError, isErrorCode, type MfaProblem, wrongCodeErrors } from './mfa-errors.ts';
import { useCountdown } from './use-countdown.ts';
import { useDeliveryWatch } from './use-delivery-watch.ts';

/** SPEC §2 'Enter code at login': the code of the enrolled method, or a recovery code. */
export function VerifyScreen({ status }: { status: MfaStatusResponse }) {
  const { t, i18n } = useTranslation();
  const branding = useBranding();
  const finish = useFinishMfa(status);
  const factor = status.factor!;
  const isPhone = factor.deliveryType !== 'totp';
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  const [channel, setChannel] = useState<PhoneDeliveryType>(
    factor.deliveryType === 'voice' ? 'voice' : 'sms',
  );
  // Unticked: a shared front-desk PC must not become trusted unless someone chooses so.
  const [trust, setTrust] = useState(false);
  const [pending, setPending] = useState(false);
  const [resent, setResent] = useState(false);
  // Says "we sent …" only once a code really went out (or went out moments ago).
  const [codeSent, setCodeSent] = useState(false);
  const [seconds, startCountdown] = useCountdown();
  const [lockedFor, startLock] = useCountdown();
  // Checks are locked (too many wrong codes): nothing that needs a check is offered meanwhile.
  const locked = lockedFor > 0;
  const [lockEnded, setLockEnded] = useState(false);
  const wasLocked = useRef(false);
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
  const delivery = useDeliveryWatch(setProblem);
  const inputRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  async function send(next: PhoneDeliveryType, first: boolean) {
    setPending(true);
    setProblem(null);
    setResent(false);
    try {
      const answer = await mfaApi.sendPhoneCode(next);
      setChannel(answer.deliveryType);
      setCodeSent(true);
      startCountdown(answer.resendInSeconds);
      if (answer.deliveryType === 'voice') delivery.watch();
      if (!first) setResent(true);
    } catch (caught) {
      const described = describeMfaError(caught);
      // A code went out moments ago (a reload): wait for it rather than send another.
      if (isErrorCode(caught, mfaErrors.resendTooSoon) && described.retryAfterSeconds) {
        setCodeSent(true);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen, on arrival
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void trackEvent('mfa_verification_required', analyticsProps(status, factor.deliveryType));
    if (isPhone) void send(channel, true);
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const entered = enteredProof(mode, value);
    if (entered === null) {
      setFieldError(t(mode === 'code' ? 'mfa.errors.codeFormat' : 'mfa.errors.recoveryFormat'));
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setFieldError(undefined);
    setProblem(null);
    setLockEnded(false);
    const deliveryType: MfaDeliveryType = isPhone ? channel : 'totp';
    try {
      await mfaApi.verify(
        mode === 'code'
          ? { code: entered, deliveryType: isPhone ? channel : 'totp' }
          : { recoveryCode: entered },
      );
      delivery.stop();
      void trackEvent('mfa_success', analyticsProps(status, deliveryType));
      await finish(trust);
    } catch (caught) {
      setPending(false);
      const described = describeMfaError(caught);
      if (described.signedOut) return finish(false);
      if (wrongCodeErrors.has((caught as { code?: string }).code ?? '')) {
        void trackEvent('mfa_failed', analyticsProps(status, deliveryType));
      }
      if (isErrorCode(caught, mfaErrors.rateLimited)) {
        setProblem(described);
        if (described.retryAfterSeconds) startLock(described.retryAfterSeconds);
      } else {
        setFieldError(problemText(t, described, i18n.language));
      }
      setValue('');
      inputRef.current?.focus();
    }
  }

  const issuer = branding?.theme.name ?? t('common.appName');
  const intro =
    factor.deliveryType === 'totp'
      ? t('mfa.verify.totp', { issuer })
      : codeSent
        ? t(`mfa.verify.${channel}`, { phone: factor.phone ?? '' })
        : problem
          ? ''
          : t('mfa.common.working');

  return (
    <Page key={mode} titleKey="mfa.titles.verify" heading={t('mfa.verify.heading')}>
      <ProblemNotice problem={locked && problem ? { ...problem, retryAfterSeconds: lockedFor } : problem} />
      {lockEnded ? <p role="status">{t('mfa.errors.retryNow')}</p> : null}
      {mode === 'code' ? (
        <p role={isPhone ? 'status' : undefined}>
          {resent ? `${t('mfa.resend.sent')} ` : ''}
          {intro}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <ProofField mode={mode} value={value} onChange={setValue} error={fieldError} inputRef={inputRef} />
        <Checkbox
          label={t('mfa.common.trustDevice', { days: status.trustedDeviceDays })}
          checked={trust}
          onChange={(event) => setTrust(event.target.checked)}
        />
        <button type="submit" className="kc-button" disabled={pending || lockedFor > 0}>
          {t('mfa.common.verify')}
        </button>
      </form>
      {isPhone && mode === 'code' && !locked ? (
        <ResendControls seconds={seconds} busy={pending} onResend={(next) => void send(next, false)} />
      ) : null}
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
