import type { AdminTenant } from '@keycard/contract/admin';

/** What the tenant page hands each of its sections. */
export interface SectionProps {
  tenant: AdminTenant;
  /** The tenant as a change answered it, or read again. */
  onChange: (tenant?: AdminTenant) => void;
}
