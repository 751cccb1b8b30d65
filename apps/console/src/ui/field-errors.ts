import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../lib/api-error.ts';
import { type TextKey, type Translate, translator, useTranslation } from '../lib/i18n.tsx';

/**
 * Form errors that say what and where (issue 19): each refused field gets its reason in words
 * in the operator's language (never an API path such as `redirectUris.0`), a list names the
 * line, the first field to fix takes focus, and the form's alert names the fields by label.
 */

/**
 * A refusal already said at its fields: the alert shows this summary, said in the console's
 * current language (a text given as a string reads the same in every one).
 */
export class FormRefusal extends Error {
  readonly say: (t: Translate) => string;
  constructor(said: string | ((t: Translate) => string)) {
    const say = typeof said === 'string' ? () => said : said;
    super(say(translator.t));
    this.say = say;
  }
}

/** A form's fields by their labels: as a function of the language, so a summary follows a switch. */
export type FieldLabels = Record<string, string> | ((t: Translate) => Record<string, string>);

const labelsIn = (t: Translate, labels: FieldLabels) => (typeof labels === 'function' ? labels(t) : labels);

/**
 * The contract's reasons (English, from its zod schemas and the server's checks) as text keys.
 * Matched by a phrase each reason has; anything else is "not valid".
 */
const reasons: [RegExp, TextKey, ((found: RegExpMatchArray) => Record<string, string>)?][] = [
  // Numbers (the settings' days): the bound the schema names, or a whole number.
  [/expected number to be >=\s*(\d+)/, 'fieldErrors.atLeast', (found) => ({ min: found[1] ?? '' })],
  [/expected number to be <=\s*(\d+)/, 'fieldErrors.atMost', (found) => ({ max: found[1] ?? '' })],
  [/expected (int|number), received/, 'fieldErrors.wholeNumber'],
  [/part of an e-mail address/, 'fieldErrors.emailPart'],
  [/e-mail address such as|invalid e-mail/, 'fieldErrors.email'],
  [/warning period must not be longer/, 'fieldErrors.warningTooLong'],
  [/operator tenant (always )?requires MFA/, 'fieldErrors.operatorTenantMfa'],
  [/letters, digits, dashes and underscores/, 'fieldErrors.appIdFormat'],
  [/a date such as|a valid date/, 'fieldErrors.date'],
  [/fragment/, 'fieldErrors.noFragment'],
  [/app scheme uses/, 'fieldErrors.nativeMix'],
  [/use https|http only/, 'fieldErrors.needsHttps'],
  [/scheme is not allowed/, 'fieldErrors.scheme'],
  [/absolute URI|http\(s\) URL|Invalid URL/i, 'fieldErrors.absoluteUri'],
  [/spaces or control/, 'fieldErrors.noSpaces'],
  [/user name or password/, 'fieldErrors.noCredentials'],
  [/lower-case letters, digits and dashes/, 'fieldErrors.codeFormat'],
  [/letters, digits, dots, dashes and underscores/, 'fieldErrors.clientIdFormat'],
  [/host name/, 'fieldErrors.hostname'],
  [/needs a redirect URI/, 'fieldErrors.needsRedirect'],
  [/keeps authorization_code/, 'fieldErrors.loginClientGrant'],
  [/at most \d+ characters|Too big/i, 'fieldErrors.tooLong'],
  [/>=1 items|at least one|Too small: expected array/i, 'fieldErrors.pickOne'],
  [/Too small|>=1 characters|Required/i, 'fieldErrors.required'],
  [/unique|twice|more than once|each \w+ once/i, 'fieldErrors.duplicate'],
];

export function reasonText(t: Translate, message: string): string {
  for (const [pattern, key, values] of reasons) {
    const found = message.match(pattern);
    if (found) return t(key, values?.(found));
  }
  return t('fieldErrors.invalid');
}

/** The form's alert for fields marked wrong: it names them by label, never by API path. */
export function summaryOf(fields: string[], labels: FieldLabels): FormRefusal {
  return new FormRefusal((t) => {
    const named = labelsIn(t, labels);
    return t('fieldErrors.summary', { fields: fields.map((field) => named[field] ?? field).join(', ') });
  });
}

/** A refusal's path as its form field and, for a list, the line (1-based). */
export interface FieldPlace {
  field: string;
  line?: number;
}

/**
 * The errors a refusal names, by form field: `place` maps an API path (split on dots) to the
 * form's field, or null for a path the form does not show. Codes that name one field (a code
 * in use) are placed by `byCode`.
 */
export function fieldErrorsOf(
  t: Translate,
  error: ApiError,
  place: (path: string[]) => FieldPlace | null,
  byCode: Partial<Record<string, { field: string; text: TextKey }>> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  const coded = byCode[error.code];
  if (coded) errors[coded.field] = t(coded.text);
  for (const [path, message] of Object.entries(error.fields ?? {})) {
    const where = place(path.split(/[.[\]]+/).filter(Boolean));
    if (!where || errors[where.field]) continue;
    const reason = reasonText(t, message);
    errors[where.field] = where.line ? t('fieldErrors.onLine', { line: where.line, reason }) : reason;
  }
  return errors;
}

/**
 * A form's field errors: `refuse` turns a refusal into them (and a FormRefusal whose text names
 * the fields by label, for the form's alert), and the first marked control takes focus once
 * the form is enabled again.
 */
export function useFieldErrors(form: { current: HTMLFormElement | null }, busy: boolean) {
  const { t: current } = useTranslation();
  // The errors as a function of the language, so a change of language says them again in it.
  const [said, setSaid] = useState<{ errors: (t: Translate) => Record<string, string> } | null>(null);
  const errors = useMemo(() => said?.errors(current) ?? {}, [said, current]);
  const [focusPending, setFocusPending] = useState(false);
  useEffect(() => {
    if (!focusPending || busy) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    setFocusPending(false);
  }, [focusPending, busy, form]);
  const clear = useCallback(() => setSaid(null), []);
  /** Rethrows `error`, said at its fields when it names any the form shows. */
  const refuse = useCallback(
    (
      t: Translate,
      error: unknown,
      place: (path: string[]) => FieldPlace | null,
      labels: FieldLabels,
      byCode: Partial<Record<string, { field: string; text: TextKey }>> = {},
    ): never => {
      if (!(error instanceof ApiError)) throw error;
      const found = fieldErrorsOf(t, error, place, byCode);
      const fields = Object.keys(found);
      if (fields.length === 0) throw error;
      setSaid({ errors: (language) => fieldErrorsOf(language, error, place, byCode) });
      setFocusPending(true);
      // A coded refusal (a client id in use) keeps its own words in the alert.
      if (error.code !== 'common.validation_failed') throw error;
      throw summaryOf(fields, labels);
    },
    [],
  );
  /**
   * Rejects before anything is sent: marks the fields the form found wrong itself (an empty
   * address, a number that is not one), in the language given, and throws the alert's summary;
   * does nothing when there are none.
   */
  const reject = useCallback(
    (t: Translate, found: (t: Translate) => Record<string, string>, labels: FieldLabels) => {
      const fields = Object.keys(found(t));
      if (fields.length === 0) return;
      setSaid({ errors: found });
      setFocusPending(true);
      throw summaryOf(fields, labels);
    },
    [],
  );
  return { errors, clear, refuse, reject };
}
