import type { ChallengeStatus, DevicePlatform, MasterDeviceSetupStatus } from '@keycard/contract';
import type { Selectable } from 'kysely';

/**
 * The mobile-app MFA tables (migration 5001), owned by this feature and merged into the one
 * `Database` type (platform/db/schema.ts): every `Kysely<Database>` sees them.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    mobile_devices: MobileDevicesTable;
    mobile_enrolments: MobileEnrolmentsTable;
    mobile_device_tokens: MobileDeviceTokensTable;
    mobile_challenges: MobileChallengesTable;
    mobile_backoff: MobileBackoffTable;
    mobile_used_jtis: MobileUsedJtisTable;
  }
}

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

export type DeviceRow = Selectable<MobileDevicesTable>;
export type EnrolmentRow = Selectable<MobileEnrolmentsTable>;
export type ChallengeRow = Selectable<MobileChallengesTable>;
