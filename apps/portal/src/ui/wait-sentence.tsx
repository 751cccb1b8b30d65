import { splitAtWait, waitValues } from '../lib/duration.ts';
import { type PortalTextKey, type TranslateValues, useTranslation } from '../lib/i18n.tsx';

/**
 * A sentence with a wait in words ("Try again in 14 minutes."), counting down. The phrase
 * ticks in an element of its own that screen readers do not re-announce; the sentence around
 * it is announced once, when it appears.
 */
export function WaitSentence({
  textKey,
  seconds,
  values,
}: {
  textKey: PortalTextKey;
  seconds: number;
  values?: TranslateValues;
}) {
  const { t, i18n } = useTranslation();
  const text = t(textKey, { ...values, ...waitValues(seconds, i18n.language) });
  const parts = splitAtWait(text, seconds, i18n.language);
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts.before}
      <span aria-live="off" data-wait={seconds}>
        {parts.words}
      </span>
      {parts.after}
    </>
  );
}
