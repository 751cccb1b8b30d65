import type { ReactNode } from 'react';
import { Field } from './field.tsx';

/**
 * A labelled choice of one of a fixed list of values, each shown by its name, with its hint and
 * its own error: a refusal naming the field marks it invalid.
 */
export function ChoiceField<Choice extends string>({
  id,
  label,
  hint,
  error,
  choices,
  nameOf,
  value,
  onChange,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The refusal's words for this field, if it named it. */
  error?: string | undefined;
  choices: readonly Choice[];
  nameOf: (choice: Choice) => string;
  value: Choice;
  onChange: (choice: Choice) => void;
}) {
  return (
    <Field id={id} label={label} hint={hint} invalid={Boolean(error)} error={error}>
      {(control) => (
        <select
          {...control}
          value={value}
          onChange={(event) => onChange(choices.find((choice) => choice === event.target.value) ?? value)}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {nameOf(choice)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
