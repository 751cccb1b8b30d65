import type { ChallengeStatus, DevicePlatform, MasterDeviceSetupStatus } from '@keycard/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { type MfaDatabase, type MfaTables, mfaDb } from '../factors/mfa.schema.ts';

/**
 * The mobile-app MFA tables (migration 5001), owned by this feature; `mobileDb` widens a
 * Kysely instance (or transaction) with them and with the MFA tables it works beside.
 */
export type MobileTables = {
  mobile_devices: MobileDevicesTable;
  mobile_enrolments: MobileEnrolmentsTable;
  mobile_device_tokens: MobileDeviceTokensTable;
  mobile_challenges: MobileChallengesTable;
  mobile_backoff: MobileBackoffTable;
  mobile_used_jtis: MobileUsedJtisTable;
};

export interface MobileDevicesTable {
  id: string;
  tenant_code: string;
  user_id: string;
  factor_id: string;
  name: string;
  platform: DevicePlatform;
  /** The device's public key, a JWK (EC P-256) without 'd'. */
  public_jwk: string;
  push_token: string | null;
  status: 'active' | 'inactive';
  created_at: number;
  last_used_at: number | null;
  deactivated_at: number | null;
}

export interface MobileEnrolmentsTable {
  id: string;
  tenant_code: string;
  user_id: string;
  session_id: string;
  token_hash: string;
  replace_factor: number;
  status: MasterDeviceSetupStatus;
  device_id: string | null;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  finished_at: number | null;
}

export interface MobileDeviceTokensTable {
  token_hash: string;
  tenant_code: string;
  device_id: string;
  created_at: number;
  expires_at: number;
}

export interface MobileChallengesTable {
  id: string;
  tenant_code: string;
  user_id: string;
  session_id: string;
  device_id: string;
  pending_user: string | null;
  number: number;
  /** JSON array of the three numbers the device shows. */
  numbers: string;
  status: ChallengeStatus;
  ip_address: string | null;
  user_agent: string | null;
  created_at: number;
  expires_at: number;
  closed_at: number | null;
}

export interface MobileBackoffTable {
  tenant_code: string;
  user_id: string;
  strikes: number;
  next_allowed_at: number;
  muted_until: number;
}

export interface MobileUsedJtisTable {
  key: string;
  expires_at: number;
}

export type MobileDatabase = MfaDatabase & MobileTables;
export type DeviceRow = Selectable<MobileDevicesTable>;
export type EnrolmentRow = Selectable<MobileEnrolmentsTable>;
export type ChallengeRow = Selectable<MobileChallengesTable>;

export function mobileDb(
  db: Kysely<Database> | Kysely<MfaDatabase> | Kysely<MobileDatabase>,
): Kysely<MobileDatabase> {
  return mfaDb(db as Kysely<Database>).withTables<MobileTables>() as unknown as Kysely<MobileDatabase>;
}

/** The narrow Kysely type other features' helpers take (a mobile transaction is one). */
export function baseDb(db: Kysely<MobileDatabase>): Kysely<Database> {
  return db as unknown as Kysely<Database>;
}

export type { MfaTables };
