import { randomBytes } from 'node:crypto';
import type { AuditActorKind, AuditEntry } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { appendChained } from './audit-chain.ts';

/**
 * The audit log (docs/admin-api.md#audit-log): every change made by an operator, a machine
 * client, the CLI or `keycard apply` — who, when, on which tenant, what was done to what, and
 * the changed fields before and after. Secrets never reach it: any field whose name says
 * secret, password, token, hash or private key is written as "[secret]". Users are named by
 * id, not address, so erasing an account leaves no address behind in the log.
 *
 * Append-only: this module only inserts and reads, and the database refuses UPDATE and DELETE
 * on the table (migration 8001). Tamper-evident: every entry is a link of a hash chain
 * (audit-chain.ts, `keycard audit verify`), and a copy can be shipped out of the database as
 * entries commit (audit-sink.ts).
 */

export interface AuditActor {
  kind: AuditActorKind;
  /** The operator's id, the client's id; null for the CLI and apply (a shell user). */
  id: string | null;
}

export const cliActor: AuditActor = { kind: 'cli', id: null };
export const applyActor: AuditActor = { kind: 'apply', id: null };
/** Keycard itself: a repair made at start (operators.service.ts repairOperatorTenant). */
export const systemActor: AuditActor = { kind: 'system', id: null };

export interface AuditRecord {
  tenant: string | null;
  action: string;
  target: { kind: string; id: string };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export const secretMark = '[secret]';
const secretName = /secret|password|token|hash|private|sealed|^d$|^p$|^q$/i;

/** A copy of value with every secret-named field's value replaced by "[secret]". */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (depth > 16 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const last = key.split('.').at(-1) ?? key;
    out[key] =
      secretName.test(last) && inner !== null && inner !== undefined
        ? secretMark
        : withoutSecrets(inner, depth + 1);
  }
  return out;
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): the entry's time in its first 48 bits and a counter for entries of
 * the same millisecond in this process, so ids sort in the order entries were written.
 */
function entryId(now: number): string {
  if (now === lastMs) sequence += 1;
  else {
    lastMs = now;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Appends one entry at the head of the hash chain (audit-chain.ts); run it inside the
 * transaction of the change, so both happen or neither. Given no transaction, it makes one
 * for the entry alone: the chain head must stay locked until the entry is written.
 */
export async function recordAudit(
  db: Kysely<Database>,
  actor: AuditActor,
  record: AuditRecord,
  now: number,
): Promise<void> {
  const json = (value: Record<string, unknown> | null | undefined) =>
    value ? JSON.stringify(withoutSecrets(value)) : null;
  const entry = {
    id: entryId(now),
    at: now,
    actor_kind: actor.kind,
    actor_id: actor.id,
    tenant_code: record.tenant,
    action: record.action,
    target_kind: record.target.kind,
    target_id: record.target.id,
    before: json(record.before),
    after: json(record.after),
  };
  if (db.isTransaction) await appendChained(db, entry);
  else await db.transaction().execute((trx) => appendChained(trx, entry));
}

/** A plan's field changes as before/after objects (the planner already hides secret values). */
export function fieldChanges(
  fields: Array<{ field: string; before?: unknown; after?: unknown; secret?: string }>,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const change of fields) {
    if (change.secret !== undefined) {
      after[change.field] = secretMark;
      continue;
    }
    if ('before' in change) before[change.field] = change.before;
    if ('after' in change) after[change.field] = change.after;
  }
  return {
    before: Object.keys(before).length > 0 ? before : null,
    after: Object.keys(after).length > 0 ? after : null,
  };
}

export interface AuditFilter {
  /** Only these tenants' entries (a scoped operator); undefined: all. */
  tenants?: string[] | null;
  /** Never these tenants' entries (the operator tenant, for anyone but owners). */
  exceptTenants?: string[];
  tenant?: string | undefined;
  action?: string | undefined;
  actorId?: string | undefined;
  targetId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  cursor?: string | undefined;
  limit: number;
}

type AuditRow = Database['audit_log'];

function entryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: Number(row.at),
    actor: { kind: row.actor_kind as AuditActorKind, id: row.actor_id },
    tenant: row.tenant_code,
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id },
    before: row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null,
    after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
  };
}

/** Newest first; `next` continues with older entries. */
export async function searchAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.tenants) {
    if (filter.tenants.length === 0) return { entries: [], next: null };
    query = query.where('tenant_code', 'in', filter.tenants);
  }
  const except = filter.exceptTenants ?? [];
  if (except.length > 0) {
    query = query.where((eb) => eb.or([eb('tenant_code', 'is', null), eb('tenant_code', 'not in', except)]));
  }
  if (filter.tenant) query = query.where('tenant_code', '=', filter.tenant);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.cursor) {
    const [at, id] = filter.cursor.split(/:(.*)/s) as [string, string];
    const atMs = Number(at);
    query = query.where((eb) =>
      eb.or([eb('at', '<', atMs), eb.and([eb('at', '=', atMs), eb('id', '<', id)])]),
    );
  }
  const rows = await query
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    entries: page.map(entryOf),
    next: rows.length > filter.limit && last ? `${Number(last.at)}:${last.id}` : null,
  };
}

/** Every matching entry, newest first, as JSON lines, a page at a time. */
export async function* exportAudit(
  db: Kysely<Database>,
  filter: Omit<AuditFilter, 'limit' | 'cursor'>,
): AsyncGenerator<string> {
  let cursor: string | undefined;
  for (;;) {
    const { entries, next } = await searchAudit(db, { ...filter, cursor, limit: 500 });
    for (const entry of entries) yield `${JSON.stringify(entry)}\n`;
    if (!next) return;
    cursor = next;
  }
}

/**
 * A configuration plan's changes (keycard apply, the admin API's tenant routes): one entry per
 * tenant, client or partner created or changed. Invitations are recorded once invited, by the
 * account's id.
 */
export async function recordPlanAudit(
  db: Kysely<Database>,
  actor: AuditActor,
  objects: Array<{
    kind: string;
    tenant: string;
    id: string;
    action: string;
    fields: Array<{ field: string; before?: unknown; after?: unknown; secret?: string }>;
  }>,
  now: number,
): Promise<void> {
  for (const object of objects) {
    if (object.action === 'unchanged' || object.kind === 'invitation') continue;
    await recordAudit(
      db,
      actor,
      {
        tenant: object.tenant,
        action: `${object.kind}.${object.action === 'change' ? 'update' : object.action}`,
        target: { kind: object.kind, id: object.id },
        ...fieldChanges(object.fields),
      },
      now,
    );
  }
}
