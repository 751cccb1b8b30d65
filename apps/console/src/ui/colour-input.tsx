import { type ColourField, parseHex, toHex } from '@keycard/contract/contrast';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n.tsx';

export const colourFields: ColourField[] = [
  'primaryBackground',
  'primaryForeground',
  'secondaryBackground',
  'secondaryForeground',
  'tertiaryBackground',
  'tertiaryForeground',
];
const hexPattern = /^#[0-9a-fA-F]{6}$/;

/** A colour as a native picker and a hex field, both labelled, kept in step. */
export function ColourInput({
  field,
  value,
  onChange,
  disabled,
  error,
}: {
  field: ColourField;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** A reason the form gives for this colour (a failing contrast pair), said under it. */
  error?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const name = t(`theme.colours.${field}`);
  const invalid = !hexPattern.test(text);
  const normal = toHex(parseHex(value));
  return (
    <fieldset className="colour-field plain">
      <legend className="colour-name">{name}</legend>
      <input
        type="color"
        aria-label={t('theme.colourPicker', { name })}
        value={normal}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
      <input
        type="text"
        id={`${field}-hex`}
        className="hex"
        aria-label={t('theme.colourHex', { name })}
        aria-invalid={invalid || Boolean(error)}
        aria-describedby={invalid || error ? `${field}-error` : undefined}
        value={text}
        spellCheck={false}
        maxLength={7}
        disabled={disabled}
        onChange={(event) => {
          setText(event.target.value);
          if (hexPattern.test(event.target.value)) onChange(event.target.value.toLowerCase());
        }}
      />
      {(invalid || error) && (
        <span id={`${field}-error`} className="field-error">
          {invalid ? t('theme.hexInvalid') : error}
        </span>
      )}
    </fieldset>
  );
}
