import type { AdminPasskey } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { sendSecurityMail } from '../accounts/index.ts';
import type { PasskeyRow } from '../passkeys/index.ts';
import type { AdminDeps } from './admin.deps.ts';
import { tenantContext, userIn } from './users.service.ts';

/**
 * An account's passkeys for the help desk (docs/admin-api.md#users, issue 18): listed with
 * what a person recognises them by, and removed one at a time, audited. Always looked up with
 * the tenant's code and the account: another tenant's passkey is never found.
 */

type PasskeyFields = Pick<
  PasskeyRow,
  'id' | 'name' | 'created_at' | 'last_used_at' | 'backup_eligible' | 'rp_id'
>;

function passkeyOf(row: PasskeyFields): AdminPasskey {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    synced: Number(row.backup_eligible) === 1,
    rpId: row.rp_id,
  };
}

async function passkeysOf(db: Kysely<Database>, tenantCode: string, userId: string) {
  const rows = await db
    .selectFrom('passkey_credentials')
    .select(['id', 'name', 'created_at', 'last_used_at', 'backup_eligible', 'rp_id'])
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(passkeyOf);
}

export async function listUserPasskeys(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  return passkeysOf(deps.db, tenant.code, user.id);
}

/**
 * Removes one passkey: it no longer signs in, anywhere. Its removal, the audit entry (its name,
 * domain and kind; never the key) and the security mail telling the person (with its "this
 * wasn't me" link) commit together. One the account does not have (any more: removed by the
 * person alongside) answers `unchanged`.
 */
export async function removeUserPasskey(deps: AdminDeps, code: string, userId: string, passkeyId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const removed = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('passkey_credentials')
      .where('tenant_code', '=', tenant.code)
      .where('user_id', '=', user.id)
      .where('id', '=', passkeyId)
      .returning(['id', 'name', 'created_at', 'last_used_at', 'backup_eligible', 'rp_id'])
      .executeTakeFirst();
    if (!row) return false;
    const passkey = passkeyOf(row);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: tenant.code,
        action: 'user.remove_passkey',
        target: { kind: 'user', id: user.id },
        before: {
          passkey: { id: passkey.id, name: passkey.name, rpId: passkey.rpId, synced: passkey.synced },
        },
      },
      deps.now,
    );
    await sendSecurityMail(
      trx,
      deps.config,
      { tenant, user, event: 'passkey-removed', name: passkey.name },
      deps.now,
    );
    return true;
  });
  return {
    outcome: removed ? ('done' as const) : ('unchanged' as const),
    passkeys: await passkeysOf(deps.db, tenant.code, user.id),
  };
}
