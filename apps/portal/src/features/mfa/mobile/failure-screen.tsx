import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useEffect, useRef } from 'react';
import { useBranding } from '../../../lib/branding.tsx';
import { waitValues } from '../../../lib/duration.ts';
import { type PortalTextKey, useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { Page } from '../../../ui/page.tsx';
import { UseRecoveryCode } from '../components.tsx';
import { useCountdown } from '../use-countdown.ts';
import { Countdown } from './parts.tsx';
import type { ApprovalFailure } from './use-number-approval.ts';

const headings: Record<ApprovalFailure, PortalTextKey> = {
  TIMEOUT: 'mfa.mobile.failure.timeoutHeading',
  REJECTED: 'mfa.mobile.failure.rejectedHeading',
  FAILED: 'mfa.mobile.failure.failedHeading',
  RATE_LIMITED: 'mfa.mobile.failure.rateLimitedHeading',
};
const bodies: Record<ApprovalFailure, PortalTextKey> = {
  TIMEOUT: 'mfa.mobile.failure.timeoutBody',
  REJECTED: 'mfa.mobile.failure.rejectedBody',
  FAILED: 'mfa.mobile.failure.failedBody',
  RATE_LIMITED: 'mfa.mobile.failure.rateLimitedBody',
};

/**
 * SPEC §2 'Authentication error': timed out, rejected (contact customer service), failed, or
 * rate limited. The server's back-off (retryAfterSeconds, after any refused or unanswered
 * request) is counted down live; "Send a new request" waits for it.
 */
export function ApprovalFailureScreen({
  reason,
  retryAfterSeconds,
  onRetry,
  onUseRecovery,
  onCancel,
  signInLinks = true,
}: {
  reason: ApprovalFailure;
  retryAfterSeconds: number | null;
  onRetry: () => void;
  onUseRecovery?: () => void;
  /** Leaves this flow (a replacement the user no longer wants). */
  onCancel?: () => void;
  /** Lost-phone reset and log out: at sign-in, not inside the reset itself. */
  signInLinks?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const supportUrl = useBranding()?.theme.links.contactSupportUrl;
  const [seconds, startCountdown] = useCountdown();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (retryAfterSeconds && retryAfterSeconds > 0) startCountdown(retryAfterSeconds);
  }, [retryAfterSeconds, startCountdown]);
  const waited = Boolean(retryAfterSeconds && retryAfterSeconds > 0);

  return (
    <Page key={`failed-${reason}`} titleKey="mfa.titles.mobileFailed" heading={t(headings[reason])}>
      <Notice tone="error">{t(bodies[reason])}</Notice>
      {reason === 'REJECTED' && supportUrl ? (
        <p>
          <a className="kc-link" href={supportUrl} target="_blank" rel="noopener noreferrer">
            {t('mfa.mobile.failure.contact')}
          </a>
        </p>
      ) : null}
      {seconds > 0 ? (
        <Countdown
          seconds={seconds}
          text={t('mfa.mobile.failure.retryIn', waitValues(seconds, i18n.language))}
          spoken={(left) => t('mfa.mobile.failure.retryIn', waitValues(left, i18n.language))}
        />
      ) : waited ? (
        <p className="kc-mfa-countdown" role="status">
          {t('mfa.mobile.failure.retryNow')}
        </p>
      ) : null}
      <div className="kc-mfa-actions">
        <button type="button" className="kc-button" onClick={onRetry} disabled={seconds > 0}>
          {t('mfa.mobile.verify.newRequest')}
        </button>
        {onCancel ? (
          <button type="button" className="kc-button kc-button-secondary" onClick={onCancel}>
            {t('mfa.common.cancel')}
          </button>
        ) : null}
      </div>
      {signInLinks || onUseRecovery ? (
        <div className="kc-links">
          {onUseRecovery ? <UseRecoveryCode onClick={onUseRecovery} /> : null}
          {signInLinks ? (
            <>
              <Link className="kc-link" to={paths.mfaReset}>
                {t('mfa.verify.lostAccess')}
              </Link>
              <Link className="kc-link" to={paths.logout}>
                {t('mfa.common.logOut')}
              </Link>
            </>
          ) : null}
        </div>
      ) : null}
    </Page>
  );
}
