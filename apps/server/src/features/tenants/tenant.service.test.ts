import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTenants } from '../../surfaces/seed/demo.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { upsertTenant } from './tenant.admin.ts';
import { TenantDirectory } from './tenant.service.ts';

/**
 * Holds the answers of host-name look-ups (tenant_domains) after the database gave them, as a
 * busy connection pool or a slow network delivers an answer late: the query ran, its answer
 * has not reached the caller yet.
 */
class LateDomainAnswers implements KyselyPlugin {
  holding = false;
  readonly #domainQueries = new WeakSet<object>();
  #held: Array<() => void> = [];
  #arrived: Array<() => void> = [];

  transformQuery(args: PluginTransformQueryArgs) {
    if (JSON.stringify(args.node).includes('"tenant_domains"')) this.#domainQueries.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs) {
    if (this.holding && this.#domainQueries.has(args.queryId)) {
      for (const arrived of this.#arrived.splice(0)) arrived();
      await new Promise<void>((resolve) => this.#held.push(resolve));
    }
    return args.result;
  }

  /** Resolves once a host-name look-up has been answered by the database and is being held. */
  arrived(): Promise<void> {
    return new Promise((resolve) => this.#arrived.push(resolve));
  }

  release(): void {
    this.holding = false;
    for (const release of this.#held.splice(0)) release();
  }
}

// PostgreSQL only: there a look-up and the poll run on connections of their own and may finish
// in either order. SQLite runs every query on one connection, one after the other.
describe('the tenant directory on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('postgres');
  });
  afterAll(() => t.close());

  it('does not remember a host name as unknown from an answer that was given before the domain was added', async () => {
    const late = new LateDomainAnswers();
    const directory = new TenantDirectory(t.services.db.withPlugin(late));
    await directory.refresh();
    const host = 'late.grand-hotel.localhost';

    late.holding = true;
    const arrived = late.arrived();
    const first = directory.resolveHost(host);
    // The database has answered "unknown"; the answer is on its way.
    await arrived;

    // Meanwhile an operator adds the domain, and this instance's poll sees the change.
    const grandHotel = demoTenants.find((tenant) => tenant.code === 'grand-hotel')!;
    await upsertTenant(t.services.db, {
      ...grandHotel,
      aliasDomains: [...(grandHotel.aliasDomains ?? []), host],
    });
    await directory.refresh();

    late.release();
    // That request began before the change: unknown is a fair answer for it.
    expect(await first).toBeNull();
    // Every request after the poll finds the tenant; a cached "unknown" would last until the
    // next change of any tenant, however long that is.
    expect(await directory.resolveHost(host)).toMatchObject({ code: 'grand-hotel' });
  });
});

describe.each(engines)('the tenant directory on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('finds a tenant created elsewhere after it was asked for and not found, and keeps no misses', async () => {
    const directory = new TenantDirectory(t.services.db);
    await directory.refresh();
    expect(await directory.byCode('late-brand')).toBeNull();
    // Another instance (or the CLI) creates it; this directory has never loaded it.
    const grandHotel = demoTenants.find((tenant) => tenant.code === 'grand-hotel')!;
    await upsertTenant(t.services.db, {
      ...grandHotel,
      code: 'late-brand',
      aliasCode: null,
      loginDomain: 'late-brand.localhost',
      aliasDomains: [],
    });
    await directory.refresh();
    expect(await directory.byCode('late-brand')).toMatchObject({ code: 'late-brand' });
    expect(await directory.resolveHost('late-brand.localhost')).toMatchObject({ code: 'late-brand' });
  });
});
