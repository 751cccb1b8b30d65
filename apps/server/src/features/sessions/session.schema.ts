/**
 * The sessions feature's own table (migration 9002), merged into the one `Database` type
 * (platform/db/schema.ts). The `sessions` table itself is shared by several features and
 * stays in the platform schema.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    account_mfa_sign_ins: AccountMfaSignInsTable;
  }
}

/** When the account last passed MFA: it outlives sessions and factors. */
export interface AccountMfaSignInsTable {
  user_id: string;
  tenant_code: string;
  last_mfa_at: number;
}
