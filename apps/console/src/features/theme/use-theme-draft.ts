import type { AdminTenant } from '@keycard/contract/admin';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isRedirectingToSignIn } from '../../lib/auth.ts';
import { useSession } from '../../lib/session.tsx';

export type ThemeDraft = AdminTenant['theme'];

/** Per operator: a draft comes back only to whoever made it, never to the next one in the tab. */
const storageKey = (operator: string, code: string) => `keycard-console:theme-draft:${operator}:${code}`;

function stored(operator: string | null, code: string): ThemeDraft | null {
  if (operator === null) return null;
  try {
    const text = sessionStorage.getItem(storageKey(operator, code));
    return text ? (JSON.parse(text) as ThemeDraft) : null;
  } catch {
    return null;
  }
}

const same = (a: ThemeDraft, b: ThemeDraft) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The theme being edited. Every edit is kept in sessionStorage under the operator's id, so a
 * sign-in that renews the console's token (a full round trip through the provider) or a reload
 * loses nothing, and sign-out (which clears the console's storage) leaves nothing behind.
 */
export function useThemeDraft(code: string, published: ThemeDraft) {
  const { operatorKey } = useSession();
  const [draft, setDraftState] = useState<ThemeDraft>(() => stored(operatorKey, code) ?? published);
  const [restored, setRestored] = useState(() => {
    const kept = stored(operatorKey, code);
    return kept !== null && !same(kept, published);
  });
  // Who the operator is may be known only after the editor opens (GET /me answers later):
  // the draft kept for them comes back then, unless editing has begun.
  const loadedFor = useRef(operatorKey);
  const edited = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly known operator restores; a newly published theme does not
  useEffect(() => {
    if (operatorKey === null || loadedFor.current === operatorKey) return;
    loadedFor.current = operatorKey;
    const kept = stored(operatorKey, code);
    if (edited.current || kept === null || same(kept, published)) return;
    setDraftState(kept);
    setRestored(true);
  }, [operatorKey, code]);
  const setDraft = useCallback(
    (update: (draft: ThemeDraft) => ThemeDraft) =>
      setDraftState((current) => {
        const next = update(current);
        edited.current = true;
        if (operatorKey !== null) sessionStorage.setItem(storageKey(operatorKey, code), JSON.stringify(next));
        return next;
      }),
    [operatorKey, code],
  );
  const reset = useCallback(
    (theme: ThemeDraft) => {
      if (operatorKey !== null) sessionStorage.removeItem(storageKey(operatorKey, code));
      setDraftState(theme);
    },
    [operatorKey, code],
  );
  const dirty = !same(draft, published);
  return { draft, setDraft, reset, dirty, restored };
}

/** Asks before leaving with unsaved changes: a link in the console, or closing the tab. */
export function useLeaveWarning(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    // A new sign-in leaves the page too, but the draft is in sessionStorage and comes back.
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!isRedirectingToSignIn()) event.preventDefault();
    };
    // Capture phase on the document: runs before the router's click handler.
    const click = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || event.defaultPrevented) return;
      if (!window.confirm(question)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [active, question]);
}
