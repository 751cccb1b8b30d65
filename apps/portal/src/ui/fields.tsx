import { type InputHTMLAttributes, type Ref, useId, useState } from 'react';
import { useTranslation } from '../lib/i18n.tsx';

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

/** An eye, crossed out while the password shows (the toggle's state is in aria-pressed). */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      {crossed ? <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /> : null}
    </svg>
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
        {/* A toggle button: one name, its state in aria-pressed, so a screen reader says
            "Show password, toggle button, pressed" once instead of a name that changes. */}
        <button
          type="button"
          className="kc-toggle"
          aria-label={t('common.showPassword')}
          aria-pressed={visible}
          aria-controls={id}
          title={visible ? t('common.hidePassword') : t('common.showPassword')}
          onClick={() => setVisible((v) => !v)}
        >
          <EyeIcon crossed={visible} />
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
