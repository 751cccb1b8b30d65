import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { type LifecycleOutcome, lifecycleOutcome, mailRequestErrors } from './lifecycle-errors.ts';
import { useRefusal } from './refusal-notice.tsx';

/**
 * Asking for a mail (a reset link, a new activation link): pending while it runs, a refusal
 * notice by the flow's table (a rate limit counted down), the unknown-error page otherwise.
 * `send` answers the server's answer, or null when it was refused. The action stays pending
 * after an answer, while the screen moves on, unless the caller calls `settle` (it stays).
 * `table`: the flow's error table; `replace`: the unknown-error page replaces this one.
 */
export function useMailRequest({ table = mailRequestErrors, replace = false } = {}) {
  const navigate = useNavigate();
  const { refusal, seconds, waiting, refuse, clear } = useRefusal();
  const [pending, setPending] = useState(false);

  function refused(outcome: LifecycleOutcome) {
    if (outcome.kind === 'notice') refuse(outcome.key, outcome.wait);
    else navigate(paths.error, { replace });
  }

  async function send<T>(call: () => Promise<T>): Promise<T | null> {
    setPending(true);
    clear();
    try {
      return await call();
    } catch (caught) {
      setPending(false);
      refused(lifecycleOutcome(table, caught));
      return null;
    }
  }

  return { refusal, seconds, waiting, pending, send, settle: () => setPending(false), clear };
}
