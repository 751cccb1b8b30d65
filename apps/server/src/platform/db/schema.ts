/**
 * The one database type. This interface holds the platform's tables and those several features
 * share (tenants, users, sessions, …); each feature adds the tables it owns from its own
 * `*.schema.ts` by declaration merging:
 *
 *     declare module '../../platform/db/schema.ts' {
 *       interface Database { mfa_factors: MfaFactorsTable }
 *     }
 *
 * so every `Kysely<Database>` (and transaction) sees every table, with no cast or wrapper.
 * Times are epoch milliseconds; booleans are 0/1; JSON is text — the same on SQLite and PostgreSQL.
 */
export interface Database {
  tenants: TenantsTable;
  tenant_domains: TenantDomainsTable;
  oidc_clients: OidcClientsTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  oidc_payloads: OidcPayloadsTable;
  signing_keys: SigningKeysTable;
  attempt_buckets: AttemptBucketsTable;
  known_browsers: KnownBrowsersTable;
  outbox: OutboxTable;
  audit_log: AuditLogTable;
  operators: OperatorsTable;
  disabled_clients: DisabledClientsTable;
  tenant_assets: TenantAssetsTable;
  tenant_change_leases: TenantChangeLeasesTable;
  audit_chain_head: AuditChainHeadTable;
  audit_sink_cursors: AuditSinkCursorsTable;
}

export interface TenantsTable {
  code: string;
  alias_code: string | null;
  login_domain: string;
  login_client_id: string;
  theme: string;
  default_redirect_uri: string;
  settings: string;
  created_at: number;
  /** Raised by every change to the tenant, its domains or clients (cache invalidation). */
  version: number;
}

export interface TenantDomainsTable {
  domain: string;
  tenant_code: string;
}

export interface OidcClientsTable {
  tenant_code: string;
  client_id: string;
  metadata: string;
  created_at: number;
}

export type AccountStatus = 'active' | 'pending' | 'disabled';

export interface UsersTable {
  id: string;
  tenant_code: string;
  email: string;
  type: string;
  locale: string;
  status: AccountStatus;
  password_hash: string | null;
  password_changed_at: number | null;
  email_verified: number;
  email_verification_required: number;
  secret_question: string | null;
  secret_answer_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface PasswordHistoryTable {
  id: string;
  user_id: string;
  password_hash: string;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  tenant_code: string;
  user_id: string;
  provider: string;
  partner_code: string | null;
  /** How the session last passed MFA (a factor, a recovery code or a trusted device). */
  mfa_method: string | null;
  /** When the session last passed MFA; null until it does. */
  mfa_verified_at: number | null;
  /** The sign-in itself: the password step (auth_time) of this session. */
  created_at: number;
  /** The app request (provider interaction) the password step was made for, if any. */
  interaction_uid: string | null;
  expires_at: number;
  /** The partner identity token of an authx session (hashed), else null. */
  partner_token_hash: string | null;
  /** When the password was last proven again in this session (migration 9401), else null. */
  reauthenticated_at: number | null;
}

export interface OneTimeTokensTable {
  id: string;
  tenant_code: string;
  user_id: string | null;
  purpose: string;
  data: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface OidcPayloadsTable {
  tenant_code: string;
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  account_id: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

export interface SigningKeysTable {
  tenant_code: string;
  kid: string;
  sealed_jwk: string;
  created_at: number;
}

export interface KnownBrowsersTable {
  id: string;
  tenant_code: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface AttemptBucketsTable {
  key: string;
  level: number;
  updated_at: number;
  locked_until: number;
  reservation: string;
  expires_at: number;
}

export interface OutboxTable {
  id: string;
  tenant_code: string;
  channel: string;
  recipient: string;
  template: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  sent_at: number | null;
  last_error: string | null;
}

/** Append-only (a trigger refuses UPDATE and DELETE); JSON before/after without secrets. */
export interface AuditLogTable {
  id: string;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  tenant_code: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  before: string | null;
  after: string | null;
  /** The hash chain (admin/audit-chain.ts): position, the previous entry's hash, this one's. */
  seq: number;
  prev_hash: string;
  hash: string;
}

/** One row (id 1): the last position and hash of the audit chain, locked by each append. */
export interface AuditChainHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** How far each audit sink has shipped (admin/audit-sink.ts), and who holds its lease. */
export interface AuditSinkCursorsTable {
  sink: string;
  seq: number;
  holder: string | null;
  lease_until: number;
}

export interface OperatorsTable {
  id: string;
  /** human: a user of the operator tenant; client: one of its OAuth clients. */
  kind: string;
  subject: string;
  role: string;
  /** JSON array of tenant codes; null: every tenant. */
  tenants: string | null;
  created_at: number;
}

export interface DisabledClientsTable {
  tenant_code: string;
  client_id: string;
  metadata: string;
  created_at: number;
}

/** An uploaded theme image (base64), by the SHA-256 of its content. */
export interface TenantAssetsTable {
  tenant_code: string;
  id: string;
  content_type: string;
  content: string;
  created_at: number;
}

/** Who is changing a tenant through the admin API right now (one at a time). */
export interface TenantChangeLeasesTable {
  tenant_code: string;
  holder: string;
  expires_at: number;
}
