/**
 * The account page's recent activity (migration 9402), merged into the one `Database` type
 * (platform/db/schema.ts).
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    account_activity: AccountActivityTable;
  }
}

/** One sign-in or security change of an account, kept 30 days (activity.ts). */
export interface AccountActivityTable {
  id: string;
  tenant_code: string;
  user_id: string;
  /** An AccountActivityKind (contract account.ts). */
  kind: string;
  created_at: number;
  /** The browser's User-Agent header, cut to 512 characters; null when unknown. */
  user_agent: string | null;
  ip: string | null;
  /** JSON of the kind's detail ({ method }, { factor }, { name }). */
  detail: string;
}
