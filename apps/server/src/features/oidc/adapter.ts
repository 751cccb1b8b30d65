import { type Kysely, sql } from 'kysely';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Database } from '../../platform/db/schema.ts';
import { keyShareLock } from '../tenants/index.ts';
import { providerStoreWork } from './provider-outage.ts';

/**
 * Revokes a grant and everything issued from it (access and refresh tokens, codes) on one
 * tenant. Tokens saved later under the same grant are dead too: the provider refuses any
 * token whose grant is gone (userinfo, introspection, refresh).
 */
export async function revokeGrant(db: Kysely<Database>, tenantCode: string, grantId: string): Promise<void> {
  await db
    .deleteFrom('oidc_payloads')
    .where('tenant_code', '=', tenantCode)
    .where((eb) =>
      eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]),
    )
    .execute();
}

/**
 * oidc-provider's persistence (sessions, codes, grants, tokens, interactions) in our
 * database, scoped by tenant: one provider's artifacts are invisible to another's, and a
 * restart logs nobody out. Every method meets an outage as OAuth's temporarily_unavailable
 * (provider-outage.ts), so the provider answers 503, never 500.
 */
export function createAdapterClass(db: Kysely<Database>, tenantCode: string) {
  class KyselyAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    /**
     * Saved only while the tenant exists (issue 16): a provider still serving a tenant that
     * another instance has just deleted writes nothing that would outlive it. On PostgreSQL
     * the statement holds the tenant's row (key share) until it commits, so a deletion either
     * waits for it and then removes what it wrote, or goes first and leaves it nothing to save.
     * A time-to-live of 0 (the provider saving an interaction in its last second) expires at
     * once; only a save with none lives until removed.
     */
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const text = (value: string | null) => sql`cast(${value} as varchar)`;
      const number = (value: number | null) => sql`cast(${value} as bigint)`;
      await sql`
        insert into oidc_payloads
          (tenant_code, model, id, payload, grant_id, user_code, uid, account_id, expires_at, consumed_at)
        select ${text(tenantCode)}, ${text(this.model)}, ${text(id)}, ${text(JSON.stringify(payload))},
          ${text(payload.grantId ?? null)}, ${text(payload.userCode ?? null)}, ${text(payload.uid ?? null)},
          ${text(typeof payload.accountId === 'string' ? payload.accountId : null)},
          ${number(typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null)}, ${number(null)}
        where exists (select 1 from tenants where code = ${tenantCode} ${keyShareLock(db)})
        on conflict (tenant_code, model, id) do update set
          payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
          uid = excluded.uid, account_id = excluded.account_id, expires_at = excluded.expires_at
      `.execute(db);
    }

    find(id: string) {
      return this.#findBy('id', id);
    }

    findByUid(uid: string) {
      return this.#findBy('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.#findBy('user_code', userCode);
    }

    /**
     * Single use on every engine (RFC 6749 §4.1.2): one conditional UPDATE consumes the code
     * or refresh token, so of concurrent redemptions exactly one wins. The provider checks
     * `consumed` before calling this, but concurrent requests all pass that check; a loser
     * lands here, and as the RFC asks of a reused code, everything issued from the grant is
     * revoked (the winner's tokens included) before the loser gets invalid_grant.
     */
    async consume(id: string): Promise<void> {
      const consumed = await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: Date.now() })
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(consumed.numUpdatedRows) === 1) return;
      const row = await db
        .selectFrom('oidc_payloads')
        .select('grant_id')
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.grant_id) await revokeGrant(db, tenantCode, row.grant_id);
      throw new errors.InvalidGrant(`${this.model} already used`);
    }

    async destroy(id: string): Promise<void> {
      await db
        .deleteFrom('oidc_payloads')
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('oidc_payloads')
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where('grant_id', '=', grantId)
        .execute();
    }

    async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      if (value.length > 255) return undefined;
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at / 1000) } : payload;
    }
  }
  // Each method's store work, as the provider sees it: an outage is temporarily_unavailable.
  const methods = ['upsert', 'find', 'findByUid', 'findByUserCode', 'consume', 'destroy', 'revokeByGrantId'];
  for (const method of methods as Array<keyof Adapter>) {
    const work = KyselyAdapter.prototype[method] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(KyselyAdapter.prototype, method, {
      value(this: KyselyAdapter, ...args: unknown[]) {
        return providerStoreWork(() => work.apply(this, args));
      },
    });
  }
  return KyselyAdapter;
}
