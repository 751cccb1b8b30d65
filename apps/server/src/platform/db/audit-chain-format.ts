import { createHash } from 'node:crypto';

/**
 * The stored form of the audit log's hash chain (platform/audit/audit-chain.ts): what each
 * entry's hash covers and how it is computed. Part of the schema, so migration 9101 (which
 * chains the entries written before the chain) and the running server hash alike.
 */

export const genesisHash = '0'.repeat(64);

/** The stored columns the hash covers, as stored (before/after are JSON text). */
export interface ChainedContent {
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
}

/**
 * SHA-256 over the previous hash, a newline and a JSON array of the content in a fixed order:
 * one text for one entry, whatever the engine or the object's key order.
 */
export function entryHash(prevHash: string, entry: ChainedContent): string {
  const canonical = JSON.stringify([
    entry.id,
    Number(entry.at),
    entry.actor_kind,
    entry.actor_id,
    entry.tenant_code,
    entry.action,
    entry.target_kind,
    entry.target_id,
    entry.before,
    entry.after,
  ]);
  return createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');
}
