import type { AdminPermission } from '@keycard/contract/admin';
import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { adminRequest } from './admin-client.ts';
import { ApiError } from './api-error.ts';

type Me = AdminAnswer<typeof adminOperations.getMe>;

type MeState =
  | { status: 'loading' }
  | { status: 'known'; me: Me }
  /** The server has no /me (it answered 404): offer everything and let the API refuse. */
  | { status: 'absent' }
  | { status: 'failed'; error: unknown };

interface SessionValue {
  me: Me | null;
  /** What the console offers; the API still decides every call. */
  can: (permission: AdminPermission) => boolean;
  isOwner: boolean;
  /**
   * Whose work this tab's storage holds (theme drafts): the operator's id, `any` on a server
   * without /me, null until /me has answered.
   */
  operatorKey: string | null;
  /** Why /me failed (anything but a 404), to be shown; null otherwise. */
  error: unknown;
  /** Asks /me again after a failure. */
  retry: () => void;
}

const SessionContext = createContext<SessionValue>({
  me: null,
  can: () => false,
  isOwner: false,
  operatorKey: null,
  error: null,
  retry: () => undefined,
});

/** Who the operator is (GET /me), to hide or disable what the role may not do. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<MeState>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    adminRequest(adminOperations.getMe).then(
      (me) => setState({ status: 'known', me }),
      (error: unknown) =>
        // Only a 404 means a server without /me; a refusal, a limit or an outage is an error,
        // and an error offers nothing.
        setState(
          error instanceof ApiError && error.status === 404
            ? { status: 'absent' }
            : { status: 'failed', error },
        ),
    );
  }, []);
  useEffect(() => load(), [load]);
  const me = state.status === 'known' ? state.me : null;
  const absent = state.status === 'absent';
  const value: SessionValue = {
    me,
    can: (permission) => (me ? me.permissions.includes(permission) : absent),
    isOwner: me ? me.operator.role === 'owner' : absent,
    operatorKey: me ? me.operator.id : absent ? 'any' : null,
    error: state.status === 'failed' ? state.error : null,
    retry: load,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  return useContext(SessionContext);
}
