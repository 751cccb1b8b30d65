import { useCallback, useState } from 'react';
import { ApiError } from '../lib/api-error.ts';
import { type Translate, translator, useTranslation } from '../lib/i18n.tsx';

/** The fields a refusal names (the API answers `{ path: message }`). */
export function fieldNames(error: ApiError): string[] {
  return Object.keys(error.fields ?? {});
}

/** An API failure in the operator's language: the contract code's own text when there is one. */
export function errorText(t: Translate, error: unknown): string {
  if (error instanceof ApiError) {
    const fields = fieldNames(error);
    if (error.code === 'common.validation_failed' && fields.length > 0) {
      return t('errors.common.validation_failed', { fields: fields.join(', ') });
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

export interface ResultState {
  status: string;
  error: string;
  busy: boolean;
  /** Runs a change; its text (or the error's) is announced. */
  run: (change: () => Promise<string | undefined>) => Promise<boolean>;
  announce: (status: string) => void;
  fail: (error: string) => void;
}

/** One section's outcome: a success in a status region, a failure in an alert. */
export function useResult(): ResultState {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (change: () => Promise<string | undefined>) => {
      setBusy(true);
      setStatus('');
      setError('');
      try {
        const text = await change();
        if (text) setStatus(text);
        return true;
      } catch (caught) {
        setError(errorText(t, caught));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [t],
  );
  const announce = useCallback((text: string) => {
    setError('');
    setStatus(text);
  }, []);
  const fail = useCallback((text: string) => {
    setStatus('');
    setError(text);
  }, []);
  return { status, error, busy, run, announce, fail };
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
