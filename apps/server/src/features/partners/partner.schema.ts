import type { partnerLinkMethods } from '@keycard/contract';

/**
 * The partner tables (migrations 4001, 9001), owned by the partners feature and merged into the
 * one `Database` type (platform/db/schema.ts): every `Kysely<Database>` sees them.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    partners: PartnersTable;
    partner_identities: PartnerIdentitiesTable;
    partner_token_uses: PartnerTokenUsesTable;
    partner_link_refusals: PartnerLinkRefusalsTable;
  }
}

export interface PartnersTable {
  tenant_code: string;
  partner_code: string;
  display_name: string;
  issuer: string;
  jwks_uri: string | null;
  /** JSON of a JWKS, when the partner publishes no URL. */
  jwks: string | null;
  /** JSON array of PartnerAlgorithm. */
  algorithms: string;
  linking: string;
  /** JSON array of absolute URLs. */
  redirect_uris: string;
  help_url_template: string | null;
  skip_mfa: number;
  created_at: number;
  updated_at: number;
}

export type PartnerLinkMethod = (typeof partnerLinkMethods)[number];

export interface PartnerIdentitiesTable {
  tenant_code: string;
  partner_code: string;
  subject: string;
  user_id: string;
  link_method: PartnerLinkMethod;
  email_at_link: string | null;
  linked_at: number;
  last_sign_in_at: number | null;
  /** When the account's owner confirmed the link (migration 9001); null: never. */
  owner_confirmed_at: number | null;
}

/** A subject removed from an account: not linked to it again by e-mail (migration 9001). */
export interface PartnerLinkRefusalsTable {
  tenant_code: string;
  partner_code: string;
  subject: string;
  user_id: string;
  reason: 'owner' | 'claim';
  removed_at: number;
}

export interface PartnerTokenUsesTable {
  tenant_code: string;
  partner_code: string;
  jti: string;
  expires_at: number;
}
