import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/schema.ts';

/**
 * oidc-provider's persistence (sessions, codes, grants, tokens, interactions) in our
 * database, scoped by tenant: one provider's artifacts are invisible to another's, and a
 * restart logs nobody out.
 */
export function createAdapterClass(db: Kysely<Database>, tenantCode: string) {
  return class KyselyAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
      };
      await db
        .insertInto('oidc_payloads')
        .values({ tenant_code: tenantCode, model: this.model, id, consumed_at: null, ...row })
        .onConflict((oc) => oc.columns(['tenant_code', 'model', 'id']).doUpdateSet(row))
        .execute();
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

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: Date.now() })
        .where('tenant_code', '=', tenantCode)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
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
        .where('grant_id', '=', grantId)
        .execute();
    }

    async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
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
  };
}
