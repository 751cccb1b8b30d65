import type { AuditActorKind, AuditEntry } from '@keycard/contract';
import { auditActorKinds } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type AuditFilter, searchAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';

/**
 * The audit log as people read it (issue 19): entries with the names of who acted and what was
 * acted on — a person's e-mail address, a tenant's name — and the choices its filters offer.
 * Only names the operator may see anyway: the entries are already limited to its scope.
 */

type Scope = { only: string[] | null; except: string[] };

/** Names by id: operators (by their operator id), accounts (by user id) and tenants (by code). */
async function namesOf(
  db: Kysely<Database>,
  ids: { operators: string[]; users: string[]; tenants: string[] },
): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const operators =
    ids.operators.length > 0
      ? await db
          .selectFrom('operators')
          .select(['id', 'kind', 'subject'])
          .where('id', 'in', [...new Set(ids.operators)])
          .execute()
      : [];
  const userIds = [
    ...new Set([
      ...ids.users,
      ...operators.filter((operator) => operator.kind === 'human').map((operator) => operator.subject),
    ]),
  ];
  const users =
    userIds.length > 0
      ? await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute()
      : [];
  const emails = new Map(users.map((user) => [user.id, user.email]));
  for (const user of users) names[user.id] = user.email;
  for (const operator of operators) {
    names[operator.id] =
      operator.kind === 'human' ? (emails.get(operator.subject) ?? operator.subject) : operator.subject;
  }
  if (ids.tenants.length > 0) {
    const tenants = await db
      .selectFrom('tenants')
      .select(['code', 'theme'])
      .where('code', 'in', [...new Set(ids.tenants)])
      .execute();
    for (const tenant of tenants) {
      const theme = JSON.parse(tenant.theme) as { name?: string };
      if (theme.name) names[tenant.code] = theme.name;
    }
  }
  return names;
}

function idsOf(
  actors: { kind: string; id: string | null }[],
  targets: { kind: string; id: string }[],
): { operators: string[]; users: string[]; tenants: string[] } {
  return {
    operators: [
      ...actors.filter((actor) => actor.kind === 'operator').flatMap((actor) => (actor.id ? [actor.id] : [])),
      ...targets.filter((target) => target.kind === 'operator').map((target) => target.id),
    ],
    users: targets.filter((target) => target.kind === 'user').map((target) => target.id),
    tenants: targets.filter((target) => target.kind === 'tenant').map((target) => target.id),
  };
}

/** A page of the audit log (platform/audit searchAudit) with the names of its actors and targets. */
export async function searchNamedAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; next: string | null; names: Record<string, string> }> {
  const page = await searchAudit(db, filter);
  const names = await namesOf(
    db,
    idsOf(
      page.entries.map((entry) => entry.actor),
      page.entries.map((entry) => entry.target),
    ),
  );
  return { ...page, names };
}

const choiceLimit = 500;

/** The people, targets and actions found in the part of the log the operator may read. */
export async function auditChoices(db: Kysely<Database>, scope: Scope, tenant: string | undefined) {
  const scoped = () => {
    let query = db.selectFrom('audit_log');
    if (scope.only) query = query.where('tenant_code', 'in', scope.only.length > 0 ? scope.only : ['']);
    if (scope.except.length > 0) {
      query = query.where((eb) =>
        eb.or([eb('tenant_code', 'is', null), eb('tenant_code', 'not in', scope.except)]),
      );
    }
    if (tenant) query = query.where('tenant_code', '=', tenant);
    return query;
  };
  const actorRows = await scoped()
    .select(['actor_kind', 'actor_id'])
    .where('actor_id', 'is not', null)
    .distinct()
    .limit(choiceLimit)
    .execute();
  const targetRows = await scoped()
    .select(['target_kind', 'target_id'])
    .distinct()
    .limit(choiceLimit)
    .execute();
  const actionRows = await scoped().select('action').distinct().orderBy('action').execute();
  const actors = actorRows.flatMap((row) => {
    const kind = auditActorKinds.find((each) => each === row.actor_kind);
    return kind && row.actor_id ? [{ kind, id: row.actor_id }] : [];
  }) satisfies { kind: AuditActorKind; id: string }[];
  const targets = targetRows.map((row) => ({ kind: row.target_kind, id: row.target_id }));
  const names = await namesOf(db, idsOf(actors, targets));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    actors: actors.map((actor) => ({ ...actor, name: names[actor.id] ?? actor.id })).sort(byName),
    targets: targets.map((target) => ({ ...target, name: names[target.id] ?? target.id })).sort(byName),
    actions: actionRows.map((row) => row.action),
  };
}
