import type { ReactNode } from 'react';
import { Field } from './field.tsx';

/**
 * A labelled list typed one entry a line (redirect addresses, origins), not spell-checked, with
 * its hint and its own error: a refusal naming the field marks it invalid.
 */
export function LinesField({
  id,
  label,
  hint,
  error,
  rows,
  value,
  onChange,
}: {
  id: string;
  label: ReactNode;
  hint: ReactNode;
  /** The refusal's words for this field, if it named it. */
  error: string | undefined;
  rows: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={id} label={label} hint={hint} invalid={Boolean(error)} error={error}>
      {(control) => (
        <textarea
          {...control}
          rows={rows}
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
