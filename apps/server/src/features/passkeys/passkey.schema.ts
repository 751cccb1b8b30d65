import type { Selectable } from 'kysely';

/**
 * The passkeys feature's tables (migration 9301), merged into the one `Database` type
 * (platform/db/schema.ts).
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    passkey_user_handles: PasskeyUserHandlesTable;
    passkey_credentials: PasskeyCredentialsTable;
    passkey_challenges: PasskeyChallengesTable;
  }
}

/** The random WebAuthn user handle of an account (never its e-mail or id). */
export interface PasskeyUserHandlesTable {
  user_id: string;
  tenant_code: string;
  /** base64url of 32 random bytes. */
  handle: string;
}

export interface PasskeyCredentialsTable {
  id: string;
  tenant_code: string;
  user_id: string;
  /** base64url of the credential id. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  counter: number;
  /** JSON array of AuthenticatorTransport values. */
  transports: string;
  /** The login domain it was made on: it signs in there only. */
  rp_id: string;
  aaguid: string;
  /** 1: synced (backup eligible); 0: bound to one device. */
  backup_eligible: number;
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A ceremony's challenge (migration 9302): single use, five minutes, one browser. */
export interface PasskeyChallengesTable {
  /** sha256 (base64url) of the challenge. */
  id: string;
  tenant_code: string;
  purpose: string;
  rp_id: string;
  /** sha256 of the browser's ceremony cookie. */
  browser: string;
  /** The session that asked (creation and verification), null for a sign-in. */
  session_id: string | null;
  user_id: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export type PasskeyRow = Selectable<PasskeyCredentialsTable>;
