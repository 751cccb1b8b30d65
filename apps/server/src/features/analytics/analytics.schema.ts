/**
 * The analytics table (migration 2002), owned by this feature and merged into the one
 * `Database` type (platform/db/schema.ts): every `Kysely<Database>` sees it.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    analytics_events: AnalyticsEventsTable;
  }
}

export interface AnalyticsEventsTable {
  id: string;
  tenant_code: string;
  event: string;
  user_type: string | null;
  user_id: string | null;
  /** JSON object. */
  properties: string;
  created_at: number;
  forwarded_at: number | null;
  forward_error: string | null;
}
