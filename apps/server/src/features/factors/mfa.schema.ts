import type { Selectable } from 'kysely';
import type { MfaMethod } from '../sessions/index.ts';

/**
 * The MFA tables (migration 2001), owned by the factors feature and merged into the one
 * `Database` type (platform/db/schema.ts): every `Kysely<Database>` sees them.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    mfa_factors: MfaFactorsTable;
    mfa_phone_codes: MfaPhoneCodesTable;
    mfa_devices: MfaDevicesTable;
    mfa_recovery_codes: MfaRecoveryCodesTable;
  }
}

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

export type FactorRow = Selectable<MfaFactorsTable>;
