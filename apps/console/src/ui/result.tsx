import type { Locale } from '@keycard/contract/user-state';
import { useCallback, useState } from 'react';
import { ApiError } from '../lib/api-error.ts';
import { type Translate, translator, useTranslation } from '../lib/i18n.tsx';
import { FormRefusal } from './field-errors.ts';
import { fieldLabels } from './field-names.ts';

/** The fields a refusal names (the API answers `{ path: message }`). */
export function fieldNames(error: ApiError): string[] {
  return Object.keys(error.fields ?? {});
}

/**
 * An API failure in the operator's language: the contract code's own text when there is one.
 * A refusal of values that no form marked names the fields by their labels, or says so in a
 * general sentence when the console has no name for one of them: never an API path.
 */
export function errorText(t: Translate, error: unknown, language: Locale = translator.language): string {
  // Said at its fields already: the alert names them by label.
  if (error instanceof FormRefusal) return error.say(t);
  if (error instanceof ApiError) {
    if (error.code === 'common.validation_failed') {
      const names = fieldLabels(t, fieldNames(error), language);
      return names && names.length > 0
        ? t('errors.common.validation_failed', { fields: names.join(', ') })
        : t('fieldErrors.unplaced');
    }
    // An answer without a code of the contract: what the server said, as it said it.
    if (error.code === 'unknown') return t('errors.unknown', { code: error.message });
    return (
      translator.optional(`errors.${error.code}`, { code: error.code }) ??
      t('errors.unknown', { code: error.code })
    );
  }
  if (error instanceof SyntaxError) return t('errors.invalidJson');
  return t('errors.unknown', { code: error instanceof Error ? error.message : String(error) });
}

/**
 * A text kept as how to say it, not as the words of the moment: a section's outcome is said
 * again in the language the console changes to (as the field errors are, field-errors.ts).
 */
export type Saying = (t: Translate, language: Locale) => string;

/** What a section says: a Saying, or a text that reads the same in every language (a name). */
export type Said = Saying | string;

const sayIn = (said: Said | null, t: Translate, language: Locale) =>
  said === null ? '' : typeof said === 'string' ? said : said(t, language);

export interface ResultState {
  /** The outcome in the console's current language. */
  status: string;
  error: string;
  busy: boolean;
  /** Runs a change; its text (or the error's) is announced. */
  run: (change: () => Promise<Said | undefined>) => Promise<boolean>;
  announce: (status: Said) => void;
  fail: (error: Said) => void;
}

/** One section's outcome: a success in a status region, a failure in an alert. */
export function useResult(): ResultState {
  const { t, language } = useTranslation();
  const [status, setStatus] = useState<Said | null>(null);
  const [error, setError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (change: () => Promise<Said | undefined>) => {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      const said = await change();
      if (said) setStatus(() => said);
      return true;
    } catch (caught) {
      // The error itself is kept, so its words follow a change of language.
      setError(() => (now: Translate, language: Locale) => errorText(now, caught, language));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const announce = useCallback((said: Said) => {
    setError(null);
    setStatus(() => said);
  }, []);
  const fail = useCallback((said: Said) => {
    setStatus(null);
    setError(() => said);
  }, []);
  return {
    status: sayIn(status, t, language),
    error: sayIn(error, t, language),
    busy,
    run,
    announce,
    fail,
  };
}

/** The live regions of a section: always present, so screen readers hear each change. */
export function Result({ result }: { result: Pick<ResultState, 'status' | 'error'> }) {
  return (
    <div className="result">
      <p role="status" className={result.status ? 'notice notice-ok' : 'notice-empty'}>
        {result.status}
      </p>
      <p role="alert" className={result.error ? 'notice notice-error' : 'notice-empty'}>
        {result.error}
      </p>
    </div>
  );
}
