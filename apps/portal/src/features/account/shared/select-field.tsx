import { type Ref, type SelectHTMLAttributes, useId } from 'react';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  selectRef?: Ref<HTMLSelectElement>;
  options: Array<{ value: string; label: string }>;
  placeholder: string;
}

/** A labelled native select; like TextField, its error is tied to it and announced. */
export function SelectField({ label, error, selectRef, options, placeholder, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="kc-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        ref={selectRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="kc-field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
