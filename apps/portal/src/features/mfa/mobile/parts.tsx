import { useEffect, useState } from 'react';
import { waitValues } from '../../../lib/duration.ts';
import { useTranslation } from '../../../lib/i18n.tsx';
import type { NumberChallenge } from './api.ts';

/** Seconds left announced to screen readers: a few marks, not every tick. */
const announceAt = new Set([60, 30, 10]);

/**
 * A countdown shown every second, but spoken only at a few marks (60, 30, 10 seconds left)
 * through its own polite live region: a region that changed every second would drown out
 * everything else a screen reader has to say.
 */
export function Countdown({
  seconds,
  text,
  spoken,
}: {
  seconds: number;
  text: string;
  spoken: (seconds: number) => string;
}) {
  const [announcement, setAnnouncement] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: speaks when the seconds reach a mark
  useEffect(() => {
    if (announceAt.has(seconds)) setAnnouncement(spoken(seconds));
  }, [seconds]);
  return (
    <>
      <p className="kc-mfa-countdown" data-countdown={seconds}>
        {text}
      </p>
      <p className="kc-mfa-sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/**
 * The number the user must select on the phone, large, with the instruction as a status
 * message (spoken once when the challenge arrives) and the challenge's countdown.
 */
export function NumberPrompt({
  challenge,
  seconds,
  device,
}: {
  challenge: NumberChallenge;
  seconds: number;
  device: string | null;
}) {
  const { t, i18n } = useTranslation();
  const number = String(challenge.number);
  return (
    <div className="kc-mfa-number-prompt">
      <p>{device ? t('mfa.mobile.verify.sentTo', { device }) : t('mfa.mobile.verify.sentToPhone')}</p>
      <div className="kc-mfa-number-box">
        <p className="kc-mfa-number-label">{t('mfa.mobile.verify.numberLabel')}</p>
        <p className="kc-mfa-number" data-testid="mfa-number">
          {number}
        </p>
      </div>
      <p className="kc-mfa-instruction" role="status">
        {t('mfa.mobile.verify.instruction', { number })}
      </p>
      <Countdown
        seconds={seconds}
        text={t('mfa.mobile.verify.expires', waitValues(seconds, i18n.language))}
        spoken={(left) => t('mfa.mobile.verify.expires', waitValues(left, i18n.language))}
      />
    </div>
  );
}
