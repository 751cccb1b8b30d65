import { type AdminPermission, adminMeResponse } from '@keycard/contract/admin';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import type { z } from 'zod';
import { ApiError, callApi } from './api.ts';

type Me = z.infer<typeof adminMeResponse>;

interface SessionValue {
  me: Me | null;
  /** What the console offers; the API still decides every call. */
  can: (permission: AdminPermission) => boolean;
  isOwner: boolean;
}

const SessionContext = createContext<SessionValue>({ me: null, can: () => true, isOwner: false });

/** Who the operator is (GET /me), to hide or disable what the role may not do. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  const [unknown, setUnknown] = useState(false);
  useEffect(() => {
    callApi('/me', adminMeResponse).then(setMe, (error: unknown) => {
      // A server without /me yet: offer everything and let the API refuse.
      if (error instanceof ApiError) setUnknown(true);
    });
  }, []);
  const value: SessionValue = {
    me,
    can: (permission) => (me ? me.permissions.includes(permission) : unknown),
    isOwner: me ? me.operator.role === 'owner' : unknown,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  return useContext(SessionContext);
}
