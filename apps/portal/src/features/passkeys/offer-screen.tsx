import { useTranslation } from '../../lib/i18n.tsx';
import { Notice } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { passkeyProblemTexts } from './passkey-errors.ts';
import { usePasskeyOffer } from './use-passkey-offer.ts';
import './passkeys.css';

/**
 * After a password (and factor) sign-in, before the hand-off to the app: "Sign in faster next
 * time with a passkey" — create one, or not now (docs/passkeys.md). `onDone` goes on to the app.
 */
export function PasskeyOfferScreen({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const offer = usePasskeyOffer();

  if (offer.created) {
    return (
      // A new key: the new screen's heading takes focus, as after a navigation.
      <Page key="created" titleKey="passkeys.titles.created" heading={t('passkeys.titles.created')}>
        <Notice tone="success">{t('passkeys.offer.created')}</Notice>
        <div className="kc-passkey-actions">
          <button type="button" className="kc-button" onClick={onDone}>
            {t('passkeys.offer.continue')}
          </button>
        </div>
      </Page>
    );
  }
  return (
    <Page key="offer" titleKey="passkeys.titles.offer" heading={t('passkeys.offer.heading')}>
      {offer.problem ? <Notice tone="error">{t(passkeyProblemTexts[offer.problem])}</Notice> : null}
      <p>{t('passkeys.offer.body')}</p>
      <div className="kc-passkey-actions">
        {offer.canCreate ? (
          <button
            type="button"
            className="kc-button"
            aria-disabled={offer.pending}
            aria-busy={offer.pending}
            onClick={() => void offer.create()}
          >
            <PendingLabel pending={offer.pending}>
              {offer.pending ? t('passkeys.waiting') : t('passkeys.offer.create')}
            </PendingLabel>
          </button>
        ) : null}
        <button
          type="button"
          className={offer.canCreate ? 'kc-button kc-button-secondary' : 'kc-button'}
          onClick={onDone}
          disabled={offer.pending}
        >
          {offer.canCreate ? t('passkeys.offer.notNow') : t('passkeys.offer.continue')}
        </button>
      </div>
    </Page>
  );
}
