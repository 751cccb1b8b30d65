import { useCallback, useState } from 'react';
import { useSecondsLeft } from '../../../lib/duration.ts';
import { type PortalTextKey, useTranslation } from '../../../lib/i18n.tsx';
import { Notice } from '../../../ui/fields.tsx';
import { WaitSentence } from '../../../ui/wait-sentence.tsx';
import type { Wait } from './lifecycle-errors.ts';

interface Refusal {
  key: PortalTextKey;
  wait?: { key: PortalTextKey; until: number };
}

/**
 * A form's refusal notice. A refusal with a wait (a rate limit) counts it down in words and
 * holds the form's action (`waiting`) until it ends; then the notice goes and the action is
 * offered again: a screen never says "try again in 40 seconds" beside a button that would be
 * refused.
 */
export function useRefusal() {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const seconds = useSecondsLeft(refusal?.wait?.until ?? 0);
  const expired = refusal?.wait !== undefined && seconds === 0;
  const refuse = useCallback((key: PortalTextKey, wait?: Wait) => {
    setRefusal(wait ? { key, wait: { key: wait.key, until: Date.now() + wait.seconds * 1000 } } : { key });
  }, []);
  const clear = useCallback(() => setRefusal(null), []);
  return {
    refusal: expired ? null : refusal,
    seconds,
    waiting: refusal?.wait !== undefined && seconds > 0,
    refuse,
    clear,
  };
}

export function RefusalNotice({ refusal, seconds }: { refusal: Refusal | null; seconds: number }) {
  const { t } = useTranslation();
  if (!refusal) return null;
  return (
    <Notice tone="error">
      {refusal.wait ? <WaitSentence textKey={refusal.wait.key} seconds={seconds} /> : t(refusal.key)}
    </Notice>
  );
}
