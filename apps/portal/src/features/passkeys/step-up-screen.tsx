import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useTranslation } from '../../lib/i18n.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { passkeyProblemTexts } from './passkey-errors.ts';
import { useStepUp } from './use-step-up.ts';
import './passkeys.css';

/**
 * "This app asks you to confirm with a passkey": the step-up an app's acr_values (phr, phrh)
 * asks for (docs/passkeys.md). `onConfirmed` authorizes again.
 */
export function PasskeyStepUpScreen({ iid, onConfirmed }: { iid: string; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const stepUp = useStepUp(iid, onConfirmed);
  const { none } = stepUp;

  return (
    <Page titleKey="passkeys.titles.stepUp" heading={t('passkeys.stepUp.heading')}>
      {stepUp.problem ? <Notice tone="error">{t(passkeyProblemTexts[stepUp.problem])}</Notice> : null}
      <p>
        {stepUp.appName ? t('passkeys.stepUp.body', { app: stepUp.appName }) : t('passkeys.stepUp.bodyNoApp')}
      </p>
      {none ? (
        <>
          <Notice tone="info">{t('passkeys.stepUp.none')}</Notice>
          <div className="kc-links">
            <Link className="kc-link" to={paths.account}>
              {t('passkeys.stepUp.account')}
            </Link>
          </div>
        </>
      ) : null}
      <div className="kc-passkey-actions">
        {none ? null : (
          <button
            type="button"
            className="kc-button"
            aria-disabled={stepUp.pending}
            aria-busy={stepUp.pending}
            onClick={() => void stepUp.confirm()}
          >
            <PendingLabel pending={stepUp.pending}>
              {stepUp.pending ? t('passkeys.waiting') : t('passkeys.stepUp.confirm')}
            </PendingLabel>
          </button>
        )}
        {stepUp.appName ? (
          <button
            type="button"
            className={none ? 'kc-button' : 'kc-button kc-button-secondary'}
            onClick={() => void stepUp.back()}
            disabled={stepUp.leaving}
          >
            {t('login.app.back', { app: stepUp.appName })}
          </button>
        ) : null}
      </div>
    </Page>
  );
}
