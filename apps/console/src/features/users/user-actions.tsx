import type { AdminUser } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import type { ResultState, Saying } from '../../ui/result.tsx';

/** Each user action and its operation. */
const actionOperations = {
  resendActivation: adminOperations.resendActivation,
  disable: adminOperations.disableUser,
  enable: adminOperations.enableUser,
  unlock: adminOperations.unlockUser,
  resetMfa: adminOperations.resetUserMfa,
  endSessions: adminOperations.endUserSessions,
} as const;
type Action = keyof typeof actionOperations;
/** Actions that take something away from the account: each asks first. */
type ConfirmedAction = 'disable' | 'resetMfa' | 'endSessions';
const isConfirmed = (action: Action): action is ConfirmedAction =>
  action === 'disable' || action === 'resetMfa' || action === 'endSessions';

/**
 * Only the actions that fit the account (issue 19): a new activation mail for a pending one,
 * Enable for a disabled one and Disable otherwise, Unlock only while it is locked out, Reset MFA
 * only when it has a factor or a passkey, End sessions only for an active one.
 */
export function actionsOf(user: AdminUser): Action[] {
  const list: Action[] = [];
  if (user.status === 'pending') list.push('resendActivation');
  list.push(user.status === 'disabled' ? 'enable' : 'disable');
  if (user.lockedUntil !== null) list.push('unlock');
  if (user.mfaEnrolled) list.push('resetMfa');
  if (user.status === 'active') list.push('endSessions');
  return list;
}

/** The actions of one account, each saying what it did, or that there was nothing to do. */
export function UserActions({
  code,
  user,
  result,
  onChanged,
  onDeleted,
}: {
  code: string;
  user: AdminUser;
  result: ResultState;
  onChanged: (user: AdminUser) => void;
  onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const act = (action: Action) =>
    result.run(async () => {
      const answer = await adminRequest(actionOperations[action], { params: { code, userId: user.id } });
      if (answer.user) onChanged(answer.user);
      const email = user.email;
      const outcome: Saying =
        answer.outcome === 'done'
          ? (said) => said(`users.done.${action}`, { email })
          : action === 'unlock' || action === 'resetMfa'
            ? (said) => said(`users.nothingToDo.${action}`, { email })
            : (said) => said('users.unchanged', { action: said(`users.actions.${action}`), email });
      return outcome;
    });
  const remove = () =>
    result.run(async () => {
      await adminRequest(adminOperations.deleteUser, { params: { code, userId: user.id } });
      onDeleted(user.id);
      const email = user.email;
      return (said) => said('users.deleted', { email });
    });
  return (
    <fieldset className="actions">
      <legend className="visually-hidden">{t('users.actionsFor', { email: user.email })}</legend>
      {actionsOf(user).map((action) =>
        isConfirmed(action) ? (
          <ConfirmButton
            key={action}
            question={t(`users.questions.${action}`, { email: user.email })}
            disabled={result.busy}
            onConfirm={() => void act(action)}
          >
            {t(`users.actions.${action}`)}
          </ConfirmButton>
        ) : (
          <button
            key={action}
            type="button"
            className="button-secondary"
            disabled={result.busy}
            onClick={() => void act(action)}
          >
            {t(`users.actions.${action}`)}
          </button>
        ),
      )}
      <ConfirmButton
        question={t('users.questions.delete', { email: user.email })}
        disabled={result.busy}
        onConfirm={() => void remove()}
      >
        {t('users.actions.delete')}
      </ConfirmButton>
    </fieldset>
  );
}
