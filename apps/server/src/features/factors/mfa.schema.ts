import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { MfaMethod } from '../sessions/session.service.ts';

/**
 * The MFA tables (migration 2001). Declared here rather than in db/schema.ts so the MFA
 * feature owns its storage; `mfaDb` widens a Kysely instance (or transaction) with them.
 */
// A type alias (not an interface) so it satisfies Kysely's table-map constraint.
export type MfaTables = {
  mfa_factors: MfaFactorsTable;
  mfa_phone_codes: MfaPhoneCodesTable;
  mfa_devices: MfaDevicesTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
};

/** smmobile: the partner mobile app (mobile/, docs/mobile-mfa.md); its key lives in mobile_devices. */
export type FactorType = 'totp' | 'sms' | 'voice' | 'smmobile';

export interface MfaFactorsTable {
  id: string;
  tenant_code: string;
  user_id: string;
  type: FactorType;
  status: 'pending' | 'active';
  secret_sealed: string | null;
  phone: string | null;
  last_step: number | null;
  created_at: number;
  confirmed_at: number | null;
  last_used_at: number | null;
}

export interface MfaPhoneCodesTable {
  id: string;
  tenant_code: string;
  user_id: string;
  factor_id: string;
  channel: 'sms' | 'voice';
  code_hash: string;
  attempts: number;
  outbox_id: string | null;
  delivery_error: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface MfaDevicesTable {
  id: string;
  tenant_code: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
}

export interface MfaRecoveryCodesTable {
  id: string;
  tenant_code: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** How a session passed MFA: a factor, a recovery code, or a trusted device. */
export type MfaCheckMethod = MfaMethod;

export type MfaDatabase = Database & MfaTables;
export type FactorRow = Selectable<MfaFactorsTable>;

export function mfaDb(db: Kysely<Database> | Kysely<MfaDatabase>): Kysely<MfaDatabase> {
  return (db as Kysely<Database>).withTables<MfaTables>() as unknown as Kysely<MfaDatabase>;
}
