import { type InputHTMLAttributes, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A field's error, tied to its input by id and announced when it appears. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p className="kc-field-error" id={id} role="alert">
      {error}
    </p>
  ) : null;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input; its error is tied to it (aria-describedby) and announced when it appears. */
export function TextField({ label, error, inputRef, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="kc-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function PasswordField(props: FieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const id = useId();
  const errorId = `${id}-error`;
  const { label, error, inputRef, ...input } = props;
  return (
    <div className="kc-field">
      <label htmlFor={id}>{label}</label>
      <div className="kc-password">
        <input
          id={id}
          ref={inputRef}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <button
          type="button"
          className="kc-toggle"
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('common.hidePassword') : t('common.showPassword')}
        </button>
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function Checkbox({
  label,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> & { label: string }) {
  const id = useId();
  return (
    <div className="kc-checkbox">
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function Notice({
  tone,
  children,
}: {
  tone: 'success' | 'error' | 'info';
  children: React.ReactNode;
}) {
  return (
    <div className={`kc-notice kc-notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
