import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { type PortalTextKey, useTranslation } from '../../lib/i18n.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import { Benefits, offeredMethods } from './components.tsx';
import { DaysLeft, usePostpone } from './reminder-screen.tsx';

type Choice = 'mobile' | 'totp' | 'phone';

/** The tenant's offered factors (status.methods, in its order) as the choices of this screen. */
function choices(status: MfaStatusResponse): Choice[] {
  const listed: Choice[] = [];
  for (const method of status.methods) {
    const choice: Choice | null =
      method === 'smmobile' ? 'mobile' : method === 'totp' ? 'totp' : status.phoneAvailable ? 'phone' : null;
    if (choice && !listed.includes(choice)) listed.push(choice);
  }
  return listed;
}

const choiceTexts: Record<Choice, { title: PortalTextKey; hint: PortalTextKey }> = {
  mobile: { title: 'mfa.mobile.choose.title', hint: 'mfa.mobile.choose.hint' },
  totp: { title: 'mfa.choose.app', hint: 'mfa.choose.appHint' },
  phone: { title: 'mfa.choose.phone', hint: 'mfa.choose.phoneHint' },
};

/** The phone choice promises only the channels the tenant offers (no landline without voice). */
function phoneTexts(status: MfaStatusResponse): { title: PortalTextKey; hint: PortalTextKey } {
  const sms = status.methods.includes('sms');
  const voice = status.methods.includes('voice');
  if (sms && !voice) return { title: 'mfa.choose.phoneSms', hint: 'mfa.choose.phoneSmsHint' };
  if (voice && !sms) return { title: 'mfa.choose.phoneVoice', hint: 'mfa.choose.phoneVoiceHint' };
  return choiceTexts.phone;
}

/**
 * Choose a method among those the tenant offers (partner app, authenticator app, phone); skip
 * only while MFA is not yet mandatory.
 */
export function ChooseScreen({
  status,
  onChoose,
}: {
  status: MfaStatusResponse;
  onChoose: (method: Choice) => void;
}) {
  const { t } = useTranslation();
  const postpone = usePostpone(status);
  const days = status.mfaRequiredByRemainingInDays;
  return (
    <Page titleKey="mfa.titles.setup" heading={t('mfa.choose.heading')}>
      {status.state === 'MFA_REGISTRATION_REQUIRED' ? (
        <Notice tone="info">{t('mfa.choose.required')}</Notice>
      ) : null}
      {status.canSkip ? <DaysLeft days={days} /> : null}
      <p>{t('mfa.choose.intro')}</p>
      <ul className="kc-mfa-options">
        {choices(status).map((choice) => {
          const texts = choice === 'phone' ? phoneTexts(status) : choiceTexts[choice];
          return (
            <li key={choice}>
              <button type="button" className="kc-mfa-option" onClick={() => onChoose(choice)}>
                <span className="kc-mfa-option-title">{t(texts.title)}</span>
                <span className="kc-mfa-option-hint">{t(texts.hint)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <Benefits days={status.trustedDeviceDays} methods={offeredMethods(status)} />
      <div className="kc-links">
        {status.canSkip ? (
          <button type="button" className="kc-back" onClick={postpone.ask}>
            {days !== null && days > 0 ? t('mfa.choose.skipDays', { count: days }) : t('mfa.choose.skip')}
          </button>
        ) : null}
        {status.state === 'AUTHENTICATED' ? (
          <Link className="kc-link" to={paths.authenticated} replace>
            {t('mfa.choose.skip')}
          </Link>
        ) : null}
        <Link className="kc-link" to={paths.logout}>
          {t('mfa.common.logOut')}
        </Link>
      </div>
      {postpone.dialog}
    </Page>
  );
}
