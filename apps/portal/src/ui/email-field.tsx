import { isValidEmail } from '@keycard/contract/rules';
import { useRef, useState } from 'react';
import { type PortalTextKey, useTranslation } from '../lib/i18n.tsx';
import { TextField } from './fields.tsx';

type EmailProblem = 'common.required' | 'common.invalidEmail';

/** SPEC §5: an e-mail field is required and must be an e-mail (checked on blur and on submit). */
export function emailProblem(value: string): EmailProblem | undefined {
  if (!value.trim()) return 'common.required';
  return isValidEmail(value.trim()) ? undefined : 'common.invalidEmail';
}

/** The state of one e-mail field: its value, its problem, and a submit-time check. */
export function useEmailField(initial = '') {
  const [value, setValue] = useState(initial);
  // A text key: the field's own problem, or one the server answered (e.g. a mismatch).
  const [error, setError] = useState<PortalTextKey | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  /** Shows the problem and moves focus to the field; answers the trimmed address when valid. */
  function check(): string | null {
    const problem = emailProblem(value);
    setError(problem);
    if (problem) {
      inputRef.current?.focus();
      return null;
    }
    return value.trim();
  }
  return { value, setValue, error, setError, inputRef, check };
}

export type EmailFieldState = ReturnType<typeof useEmailField>;

export function EmailField({
  field,
  label,
  autoComplete = 'username',
}: {
  field: EmailFieldState;
  label: string;
  /** `username webauthn`: the browser's autofill offers passkeys too (conditional UI). */
  autoComplete?: 'username' | 'username webauthn' | 'email';
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={label}
      type="email"
      name="email"
      autoComplete={autoComplete}
      inputMode="email"
      required
      value={field.value}
      inputRef={field.inputRef}
      onChange={(event) => {
        field.setValue(event.target.value);
        if (field.error) field.setError(emailProblem(event.target.value));
      }}
      // Leaving an empty field that shows no problem yet is not an error: "required" waits for
      // the submit. (Otherwise focusing the first field and then clicking the button would
      // raise an error that moves the button away from under the pointer.)
      onBlur={() => {
        if (field.value.trim() || field.error) field.setError(emailProblem(field.value));
      }}
      error={field.error ? t(field.error) : undefined}
    />
  );
}
