import type { MfaDeliveryType, MfaStatusResponse } from '@keycard/contract/mfa';
import { useCallback, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { type PortalTextKey, useTranslation } from '../../lib/i18n.tsx';
import { problemText } from './components.tsx';
import { analyticsProps } from './flow.ts';
import { describeMfaError, type MfaProblem } from './mfa-errors.ts';
import { useCountdown } from './use-countdown.ts';

/** The lock's notice while it runs, its wait counting down; a lock that names no wait is said as is. */
function lockNotice(problem: MfaProblem | null, lockedFor: number): MfaProblem | null {
  if (!problem) return null;
  if (lockedFor > 0) return { ...problem, retryAfterSeconds: lockedFor };
  return problem.retryAfterSeconds ? null : problem;
}

/**
 * A code (or a recovery code) the server checks: the entry, its field error, pending, and
 * the lock after too many wrong codes. A refusal is handled by the MFA table: the session
 * gone → `onSignedOut`; checks locked → a notice counting the lock down, nothing that needs a
 * check offered meanwhile, and when it ends "you may try again"; anything else on the field.
 * A wrong code reports mfa_failed. `clearProblem` clears the screen's other notice when a
 * check starts and when a lock ends, as the screen has one place for notices.
 */
export function useCodeCheck({
  status,
  onSignedOut,
  clearProblem,
}: {
  /** Null while a screen reads it: no check runs before. */
  status: MfaStatusResponse | null;
  onSignedOut: () => void;
  clearProblem?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [lockProblem, setLockProblem] = useState<MfaProblem | null>(null);
  const [lockedFor, startLock] = useCountdown();
  const locked = lockedFor > 0;
  const [lockEnded, setLockEnded] = useState(false);
  const wasLocked = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const clear = useRef(clearProblem);
  clear.current = clearProblem;

  // When the lock runs out, its message goes and the screen says a code may be entered again.
  useEffect(() => {
    if (locked) {
      wasLocked.current = true;
      return;
    }
    if (!wasLocked.current) return;
    wasLocked.current = false;
    setLockProblem(null);
    clear.current?.();
    setLockEnded(true);
  }, [locked]);

  /** A format problem found before asking the server: said on the field, which takes focus. */
  const reject = useCallback(
    (key: PortalTextKey) => {
      setFieldError(t(key));
      inputRef.current?.focus();
    },
    [t],
  );

  /**
   * Runs one check; answers the server's answer, or null when it was refused. After an
   * answer the check stays pending (the screen moves on) until `settle`.
   */
  async function check<T>(call: () => Promise<T>, deliveryType: MfaDeliveryType): Promise<T | null> {
    setPending(true);
    setFieldError(undefined);
    setLockProblem(null);
    clear.current?.();
    setLockEnded(false);
    try {
      return await call();
    } catch (caught) {
      setPending(false);
      const problem = describeMfaError(caught);
      if (problem.signedOut) {
        onSignedOut();
        return null;
      }
      if (problem.wrongCode) void trackEvent('mfa_failed', analyticsProps(status, deliveryType));
      if (problem.locksChecks) {
        setLockProblem(problem);
        if (problem.retryAfterSeconds) startLock(problem.retryAfterSeconds);
      } else {
        setFieldError(problemText(t, problem, i18n.language));
      }
      setValue('');
      inputRef.current?.focus();
      return null;
    }
  }

  return {
    value,
    setValue,
    fieldError,
    pending,
    settle: () => setPending(false),
    locked,
    /** The lock's notice, its wait counting down (a lock that names no wait is said as is). */
    lockNotice: lockNotice(lockProblem, lockedFor),
    lockEnded,
    inputRef,
    reject,
    check,
    /** Another kind of entry (code ↔ recovery code): the field starts empty. */
    reset: () => {
      setValue('');
      setFieldError(undefined);
    },
  };
}
