import type { AdminTenant } from '@keycard/contract/admin';
import { useCallback, useEffect, useState } from 'react';
import { isRedirectingToSignIn } from '../../lib/auth.ts';

export type ThemeDraft = AdminTenant['theme'];

const storageKey = (code: string) => `keycard-console:theme-draft:${code}`;

function stored(code: string): ThemeDraft | null {
  try {
    const text = sessionStorage.getItem(storageKey(code));
    return text ? (JSON.parse(text) as ThemeDraft) : null;
  } catch {
    return null;
  }
}

const same = (a: ThemeDraft, b: ThemeDraft) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The theme being edited. Every edit is kept in sessionStorage, so a sign-in that renews the
 * console's token (a full round trip through the provider) or a reload loses nothing.
 */
export function useThemeDraft(code: string, published: ThemeDraft) {
  const [draft, setDraftState] = useState<ThemeDraft>(() => stored(code) ?? published);
  const [restored] = useState(() => {
    const kept = stored(code);
    return kept !== null && !same(kept, published);
  });
  const setDraft = useCallback(
    (update: (draft: ThemeDraft) => ThemeDraft) =>
      setDraftState((current) => {
        const next = update(current);
        sessionStorage.setItem(storageKey(code), JSON.stringify(next));
        return next;
      }),
    [code],
  );
  const reset = useCallback(
    (theme: ThemeDraft) => {
      sessionStorage.removeItem(storageKey(code));
      setDraftState(theme);
    },
    [code],
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
