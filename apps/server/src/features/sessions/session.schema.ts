/**
 * The sessions feature's own table (migration 9002), merged into the one `Database` type
 * (platform/db/schema.ts). The `sessions` table itself is shared by several features and
 * stays in the platform schema.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    account_mfa_sign_ins: AccountMfaSignInsTable;
    session_details: SessionDetailsTable;
  }
}

/** When the account last passed MFA: it outlives sessions and factors. */
export interface AccountMfaSignInsTable {
  user_id: string;
  tenant_code: string;
  last_mfa_at: number;
}

/** What the account page shows of a session (migration 9403): one row per session, removed with it. */
export interface SessionDetailsTable {
  session_id: string;
  tenant_code: string;
  /** The browser's User-Agent header as last seen, cut to 512 characters. */
  user_agent: string | null;
  /** The client address as last seen. */
  ip: string | null;
  /** When the session was last used, to within sessionTouchIntervalMs. */
  last_used_at: number;
}
