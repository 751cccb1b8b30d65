import type { AdminUser } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { useCallback, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';

/** Accounts per page of the users list. */
export const pageSize = 20;

export interface UserList {
  /** The page shown; null until the first one arrives. */
  users: AdminUser[] | null;
  /** How many accounts match the search, on every page. */
  total: number;
  offset: number;
  /** The address start the page was searched by ('' for every account). */
  search: string;
  /** Loads the page at `offset` of the accounts whose address starts with `search`. */
  load: (search: string, offset: number) => Promise<{ users: AdminUser[]; total: number }>;
  /** Loads the page shown again (the first page of every account at first). */
  reload: () => Promise<{ users: AdminUser[]; total: number }>;
  /** An account as an action answered it. */
  replace: (user: AdminUser) => void;
  /** An account that is gone. */
  drop: (id: string) => void;
  /** An account just invited: shown first. */
  add: (user: AdminUser) => void;
}

/** The users list of one tenant: a page of the search, with the total (issue 19). */
export function useUserList(code: string): UserList {
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState('');
  // What reload asks for: the page shown, whatever render it is called from.
  const shown = useRef({ search: '', offset: 0 });
  const load = useCallback(
    async (email: string, from: number) => {
      const page = await adminRequest(adminOperations.searchUsers, {
        params: { code },
        query: { email: email.trim() || undefined, limit: pageSize, offset: from },
      });
      setUsers(page.users);
      setTotal(page.total);
      setOffset(from);
      setSearch(email);
      shown.current = { search: email, offset: from };
      return page;
    },
    [code],
  );
  const reload = useCallback(() => load(shown.current.search, shown.current.offset), [load]);
  const replace = useCallback(
    (user: AdminUser) =>
      setUsers((current) => (current ?? []).map((each) => (each.id === user.id ? user : each))),
    [],
  );
  const drop = useCallback((id: string) => {
    setUsers((current) => (current ?? []).filter((each) => each.id !== id));
    setTotal((count) => Math.max(0, count - 1));
  }, []);
  const add = useCallback((user: AdminUser) => {
    setUsers((current) => {
      const known = (current ?? []).some((each) => each.id === user.id);
      if (!known) setTotal((count) => count + 1);
      return [user, ...(current ?? []).filter((each) => each.id !== user.id)];
    });
  }, []);
  return { users, total, offset, search, load, reload, replace, drop, add };
}
