import { useTranslation } from '../../../lib/i18n.tsx';
import { Notice, PasswordField } from '../../../ui/fields.tsx';
import { PendingLabel } from '../../../ui/page.tsx';
import { ReproofDialog } from '../../account-page/dialogs.tsx';
import { NewPasswordFields } from '../shared/new-password.tsx';
import type { PasswordChangeInPlace } from './use-password-change-in-place.ts';

/** The expiry pages' form: current password, new, confirm; the notice and the pending button. */
export function PasswordChangeForm({ change }: { change: PasswordChangeInPlace }) {
  const { t } = useTranslation();
  return (
    <>
      <form noValidate onSubmit={(event) => void change.submit(event)}>
        {change.notice ? <Notice tone="error">{t(change.notice)}</Notice> : null}
        {change.changed ? <Notice tone="success">{t('account.expiry.changed')}</Notice> : null}
        <PasswordField
          label={t('account.password.current')}
          name="current-password"
          autoComplete="current-password"
          required
          maxLength={2048}
          value={change.current}
          inputRef={change.currentRef}
          onChange={(event) => change.setCurrent(event.target.value)}
          error={change.currentError}
        />
        <NewPasswordFields state={change.fresh} />
        <button type="submit" className="kc-button" aria-busy={change.pending}>
          <PendingLabel pending={change.pending}>{t('account.expiry.submit')}</PendingLabel>
        </button>
      </form>
      <ReproofDialog reproof={change.reproof} />
    </>
  );
}
