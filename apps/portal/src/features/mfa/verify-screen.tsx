import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { ProblemNotice, ProofField, ResendControls, TrustDevice, UseRecoveryCode } from './components.tsx';
import { useMfaVerification } from './use-mfa-verification.ts';

/**
 * SPEC §2 'Enter code at login': the code of the enrolled method, or a recovery code, or the
 * account's passkey or security key (docs/passkeys.md) — alone when it is the only factor.
 */
export function VerifyScreen({ status }: { status: MfaStatusResponse }) {
  const { t } = useTranslation();
  const branding = useBranding();
  const flow = useMfaVerification(status);
  const { factor, isPhone, mode, channel, problem, entry, passkey } = flow;
  const { locked } = entry;
  const passkeyButton = (primary: boolean) => (
    <button
      type="button"
      className={primary ? 'kc-button' : 'kc-button kc-button-secondary'}
      aria-disabled={passkey.pending}
      aria-busy={passkey.pending}
      onClick={() => void passkey.use()}
    >
      <PendingLabel pending={passkey.pending}>
        {passkey.pending ? t('passkeys.waiting') : t('passkeys.mfa.option')}
      </PendingLabel>
    </button>
  );
  const trustBox = (
    <TrustDevice days={status.trustedDeviceDays} checked={flow.trust} onChange={flow.setTrust} />
  );
  const links = (
    <div className="kc-links">
      {locked || !factor ? null : mode === 'code' ? (
        <UseRecoveryCode onClick={flow.switchMode} />
      ) : (
        <button type="button" className="kc-back" onClick={flow.switchMode}>
          {t('mfa.verify.useCode')}
        </button>
      )}
      {/* The reset asks for a code or a recovery code, which a key-only account does not have. */}
      {locked || !factor ? null : (
        <Link className="kc-link" to={paths.mfaReset}>
          {t('mfa.verify.lostAccess')}
        </Link>
      )}
      <Link className="kc-link" to={paths.logout}>
        {t('mfa.common.logOut')}
      </Link>
    </div>
  );

  if (!factor) {
    // The account's only factor is a passkey or security key: nothing to type. One made on
    // another of the tenant's domains works only there: the screen says where.
    const elsewhere = status.passkeyDomainsElsewhere ?? [];
    const here = passkey.offered || elsewhere.length === 0;
    return (
      <Page titleKey="mfa.titles.verify" heading={t('passkeys.mfa.heading')}>
        <ProblemNotice problem={problem} />
        {here ? (
          <>
            <p>{t('passkeys.mfa.intro')}</p>
            {trustBox}
            <div className="kc-mfa-actions">{passkeyButton(true)}</div>
          </>
        ) : (
          <Notice tone="info">{t('passkeys.mfa.elsewhere', { domains: elsewhere.join(', ') })}</Notice>
        )}
        {links}
      </Page>
    );
  }

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
        {trustBox}
        <div className="kc-mfa-actions">
          <button type="submit" className="kc-button" disabled={flow.pending || locked}>
            {t('mfa.common.verify')}
          </button>
        </div>
      </form>
      {passkey.offered ? <div className="kc-links">{passkeyButton(false)}</div> : null}
      {isPhone && mode === 'code' && !locked ? (
        <ResendControls seconds={flow.seconds} busy={flow.pending} onResend={flow.resend} />
      ) : null}
      {links}
    </Page>
  );
}
