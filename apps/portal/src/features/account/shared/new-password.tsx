import { isValidPassword } from '@keycard/contract/rules';
import { type RefObject, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';
import { PasswordField } from '../../../ui/fields.tsx';

type PasswordProblem = 'common.required' | 'lifecycle.passwordForm.errors.format';
type ConfirmProblem = 'common.required' | 'lifecycle.passwordForm.errors.mismatch';
/** A problem the server found with the password (history, leak list): shown on the field. */
export type ServerPasswordProblem =
  | 'lifecycle.passwordForm.errors.history'
  | 'lifecycle.passwordForm.errors.leaked';

function passwordProblem(value: string): PasswordProblem | undefined {
  if (!value) return 'common.required';
  return isValidPassword(value) ? undefined : 'lifecycle.passwordForm.errors.format';
}

function confirmProblem(value: string, password: string): ConfirmProblem | undefined {
  if (!value) return 'common.required';
  return value === password ? undefined : 'lifecycle.passwordForm.errors.mismatch';
}

/**
 * SPEC §5 new-password rules: format (digit, lower, upper, 8–2048), confirmation equal. Each
 * field is checked when it loses focus, and once touched it is re-checked whenever either
 * field changes — so fixing the password also clears (or raises) the mismatch.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState({ password: false, confirm: false });
  const [errors, setErrors] = useState<{
    password?: PasswordProblem | ServerPasswordProblem | undefined;
    confirm?: ConfirmProblem | undefined;
  }>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  function recheck(nextPassword: string, nextConfirm: string, which = touched) {
    setErrors({
      password: which.password ? passwordProblem(nextPassword) : undefined,
      confirm: which.confirm ? confirmProblem(nextConfirm, nextPassword) : undefined,
    });
  }

  return {
    password,
    confirm,
    errors,
    passwordRef,
    confirmRef,
    changePassword(value: string) {
      setPassword(value);
      recheck(value, confirm);
    },
    changeConfirm(value: string) {
      setConfirm(value);
      recheck(password, value);
    },
    blur(field: 'password' | 'confirm') {
      // An empty field left untouched is not an error yet: "required" waits for the submit.
      const value = field === 'password' ? password : confirm;
      if (!value && !touched[field]) return;
      const next = { ...touched, [field]: true };
      setTouched(next);
      recheck(password, confirm, next);
    },
    /** Checks both fields; answers the first one with a problem, to focus it. */
    validate(): RefObject<HTMLInputElement | null> | null {
      const all = { password: true, confirm: true };
      setTouched(all);
      const found = { password: passwordProblem(password), confirm: confirmProblem(confirm, password) };
      setErrors(found);
      if (found.password) return passwordRef;
      if (found.confirm) return confirmRef;
      return null;
    },
    /** Shows a server-side refusal (history, leak list) on the password field. */
    refuse(problem: ServerPasswordProblem) {
      setErrors((current) => ({ ...current, password: problem }));
      passwordRef.current?.focus();
    },
  };
}

export type NewPassword = ReturnType<typeof useNewPassword>;

export function NewPasswordFields({ state }: { state: NewPassword }) {
  const { t } = useTranslation();
  const { errors } = state;
  return (
    <>
      <PasswordField
        label={t('lifecycle.passwordForm.password')}
        name="new-password"
        autoComplete="new-password"
        required
        maxLength={2048}
        value={state.password}
        inputRef={state.passwordRef}
        onChange={(event) => state.changePassword(event.target.value)}
        onBlur={() => state.blur('password')}
        error={errors.password ? t(errors.password) : undefined}
      />
      {errors.password ? null : <p className="kc-hint">{t('lifecycle.passwordForm.hint')}</p>}
      <PasswordField
        label={t('lifecycle.passwordForm.confirmPassword')}
        name="confirm-password"
        autoComplete="new-password"
        required
        maxLength={2048}
        value={state.confirm}
        inputRef={state.confirmRef}
        onChange={(event) => state.changeConfirm(event.target.value)}
        onBlur={() => state.blur('confirm')}
        error={errors.confirm ? t(errors.confirm) : undefined}
      />
    </>
  );
}
