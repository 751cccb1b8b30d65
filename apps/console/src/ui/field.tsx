import { type ReactNode, useId } from 'react';

/** What a field hands its control: its id and how assistive technology names and describes it. */
export interface FieldControl {
  id: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * One labelled control (input, textarea or select) with its hint and its own error: the label
 * names it, the hint and the error describe it, and `invalid` marks it for the focus that goes
 * to the first field to fix. The control is drawn by the caller with what it is handed.
 */
export function Field({
  id: givenId,
  label,
  labelledBy,
  hint,
  invalid,
  error,
  describedBy,
  className,
  children,
}: {
  id?: string;
  /** The visible label; or `labelledBy`, the id of what names the control (a heading). */
  label?: ReactNode;
  labelledBy?: string;
  hint?: ReactNode;
  /** Set (true or false) for a field a refusal may name: the control says so in aria-invalid. */
  invalid?: boolean;
  /** Said under the control while it is invalid. */
  error?: ReactNode;
  /** Something outside the field that explains it too. */
  describedBy?: string;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const showError = invalid === true && error !== undefined;
  const described = [describedBy, hint !== undefined ? `${id}-hint` : '', showError ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {label !== undefined && <label htmlFor={id}>{label}</label>}
      {children({
        id,
        'aria-labelledby': labelledBy,
        'aria-describedby': described || undefined,
        'aria-invalid': invalid,
      })}
      {showError && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}
