import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useState } from 'react';
import { waitValues } from '../../../lib/duration.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import { Checkbox, Notice } from '../../../ui/fields.tsx';
import { Loader, Page } from '../../../ui/page.tsx';
import { ConfirmDialog, CopyButton, ProblemNotice, RecoveryCodes } from '../components.tsx';
import type { MfaProblem } from '../mfa-errors.ts';
import { Countdown } from './parts.tsx';
import { MobileRegistrationScreen } from './registration-screen.tsx';
import { type SetupFailure, useMobileSetup } from './use-mobile-setup.ts';

/**
 * Enrolling the partner app as the account's primary device (flow setupMasterDevice): the
 * registration screen, then the QR code with its 2-minute countdown while waiting on the
 * connection (back asks first), then the recovery codes — or the setup error screen.
 * `replace` enrols a new phone in place of the current one (the caller made sure the session
 * passed MFA moments ago) and starts with the QR code.
 */
export function MobileSetup({
  status,
  replace = false,
  onBack,
  onChoose,
}: {
  status: MfaStatusResponse;
  replace?: boolean;
  onBack: () => void;
  onChoose: (method: 'totp' | 'phone') => void;
}) {
  const { t, i18n } = useTranslation();
  const { phase, problem, trust, setTrust, seconds, start, back, finish } = useMobileSetup(status, replace);

  if (phase.name === 'intro') {
    return (
      <MobileRegistrationScreen
        status={status}
        problem={problem}
        busy={false}
        onStart={start}
        onChoose={onChoose}
      />
    );
  }

  if (phase.name === 'failed') {
    return (
      <SetupErrorScreen
        reason={phase.reason}
        problem={problem}
        mayContinue={replace || status.state === 'AUTHENTICATED' || status.canSkip}
        onRetry={start}
      />
    );
  }

  if (phase.name === 'done') {
    return (
      <Page key="mobile-done" titleKey="mfa.titles.recoveryCodes" heading={t('mfa.mobile.done.heading')}>
        <Notice tone="success">{t('mfa.mobile.done.body', { device: phase.result.device.name })}</Notice>
        {replace ? null : (
          <Checkbox
            label={t('mfa.common.trustDevice', { count: status.trustedDeviceDays })}
            checked={trust}
            onChange={(event) => setTrust(event.target.checked)}
          />
        )}
        <RecoveryCodes
          codes={phase.result.recoveryCodes}
          intro={t('mfa.recovery.body')}
          onContinue={finish}
        />
      </Page>
    );
  }

  const setup = phase.name === 'waiting' ? phase.setup : null;
  const connected = phase.name === 'waiting' && phase.connected;
  return (
    <Page key="mobile-waiting" titleKey="mfa.titles.mobileSetup" heading={t('mfa.mobile.waiting.heading')}>
      {setup ? (
        <div className="kc-mfa-waiting">
          <p>{t('mfa.mobile.waiting.body')}</p>
          <img
            className="kc-mfa-qr"
            src={setup.qrCode}
            alt={t('mfa.mobile.waiting.qrAlt')}
            width={240}
            height={240}
          />
          {connected ? null : (
            <Countdown
              seconds={seconds}
              text={t('mfa.mobile.waiting.expires', waitValues(seconds, i18n.language))}
              spoken={(left) => t('mfa.mobile.waiting.expiresSoon', waitValues(left, i18n.language))}
            />
          )}
          <Loader label={t(connected ? 'mfa.mobile.waiting.connected' : 'mfa.mobile.waiting.status')} />
          <p className="kc-mfa-manual">{t('mfa.mobile.waiting.manual')}</p>
          <div className="kc-field">
            <label htmlFor="kc-mfa-enrolment-uri">{t('mfa.mobile.waiting.uriLabel')}</label>
            <input
              id="kc-mfa-enrolment-uri"
              className="kc-mfa-key"
              type="text"
              readOnly
              value={setup.enrolmentUri}
              onFocus={(event) => event.target.select()}
            />
          </div>
          <CopyButton text={setup.enrolmentUri} label={t('mfa.mobile.waiting.copy')} />
        </div>
      ) : (
        <Loader label={t('mfa.mobile.waiting.starting')} />
      )}
      <BackWithConfirmation onBack={() => back(onBack)} />
    </Page>
  );
}

/** "Back" while the phone may be connecting: asks first, since the shown code stops working. */
function BackWithConfirmation({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <div className="kc-mfa-actions">
        <button type="button" className="kc-button kc-button-secondary" onClick={() => setAsking(true)}>
          {t('mfa.common.back')}
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        heading={t('mfa.mobile.waiting.confirm.heading')}
        body={<p>{t('mfa.mobile.waiting.confirm.body')}</p>}
        confirm={t('mfa.mobile.waiting.confirm.confirm')}
        cancel={t('mfa.mobile.waiting.confirm.cancel')}
        onConfirm={() => {
          setAsking(false);
          onBack();
        }}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/**
 * SPEC §2 'Mobile app setup error: timeout or failure, with log out and continue-into-app
 * actions' (§8: a setup timeout needs log out and back in). Continue into the app is offered
 * when MFA does not block the way (it is optional for now, or this replaces a working device).
 */
function SetupErrorScreen({
  reason,
  problem,
  mayContinue,
  onRetry,
}: {
  reason: SetupFailure;
  problem: MfaProblem | null;
  mayContinue: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const timeout = reason === 'SETUP_TIMEOUT_FAILED';
  return (
    <Page
      key={`setup-${reason}`}
      titleKey="mfa.titles.mobileSetupFailed"
      heading={t(timeout ? 'mfa.mobile.setupError.timeoutHeading' : 'mfa.mobile.setupError.failedHeading')}
    >
      {problem ? (
        <ProblemNotice problem={problem} />
      ) : (
        <Notice tone="error">
          {t(timeout ? 'mfa.mobile.setupError.timeoutBody' : 'mfa.mobile.setupError.failedBody')}
        </Notice>
      )}
      <div className="kc-mfa-actions">
        <Link className="kc-button" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
        {mayContinue ? (
          <Link className="kc-button kc-button-secondary" to={paths.authenticated} replace>
            {t('mfa.mobile.setupError.continue')}
          </Link>
        ) : null}
        <button type="button" className="kc-button kc-button-secondary" onClick={onRetry}>
          {t('mfa.mobile.setupError.retry')}
        </button>
      </div>
    </Page>
  );
}
