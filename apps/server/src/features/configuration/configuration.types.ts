import type { PartnerConfig, TenantConfig } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { ClientMetadata } from '../tenants/index.ts';

/**
 * A configuration plan (docs/configuration.md): what `keycard apply` would create or change,
 * object by object and field by field, and what it will write for each tenant.
 */

export type ObjectKind = 'tenant' | 'client' | 'partner' | 'invitation';
export type Action = 'create' | 'change' | 'unchanged' | 'remove';

export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  /** A secret's value is never shown: only where it comes from. */
  secret?: string;
}

export interface PlannedObject {
  kind: ObjectKind;
  tenant: string;
  id: string;
  action: Action;
  fields: FieldChange[];
}

export interface TenantWrite {
  code: string;
  exists: boolean;
  row: {
    alias_code: string | null;
    login_domain: string;
    login_client_id: string;
    theme: string;
    default_redirect_uri: string;
    settings: string;
  };
  rowChanged: boolean;
  /** The e-mail verification requirement, when it changes on an existing tenant. */
  verificationRequired: boolean | null;
  domains: string[];
  domainsChanged: boolean;
  clients: ClientMetadata[];
  /** client_id → the generated secret, printed once after the write. */
  generatedSecrets: Map<string, string>;
  /** Of `clients`, those to keep out of the provider's sight (disabled_clients). */
  disabledClients: string[];
  /** Clients the file no longer lists, on a tenant with `prune`. */
  removedClients: string[];
  partners: PartnerConfig[];
  /** Partners the file no longer lists, on a tenant with `prune`. */
  removedPartners: string[];
  invitations: TenantConfig['invitations'];
}

export interface ConfigurationPlan {
  objects: PlannedObject[];
  writes: TenantWrite[];
}

/** Reads a secret from the environment, recording a problem at `path` when it is unset. */
export type SecretReader = (path: PropertyKey[], name: string) => string | null;

/** What each planner of one tenant's objects reads and where it records its problems. */
export interface TenantPlanContext {
  db: Kysely<Database>;
  tenant: TenantConfig;
  /** The field path of something in this tenant, as problems name it. */
  at: (...path: PropertyKey[]) => PropertyKey[];
  problems: string[];
  secretFrom: SecretReader;
  /** Only what does not exist yet is planned; what exists is left exactly as it is. */
  onlyMissing: boolean;
}
