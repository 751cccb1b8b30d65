import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import type { TenantContext } from '../tenants/index.ts';
import { TenantDirectory } from '../tenants/index.ts';
import { type ProviderCacheEvent, ProviderRegistry } from './provider-registry.ts';

/** A tenant directory whose next look-up can be held, then failed, by the test. */
class HeldDirectory extends TenantDirectory {
  #held: Promise<TenantContext | null> | undefined;

  /** Holds the next look-up; answers what fails it. */
  holdNext(): () => void {
    let fail = () => {};
    this.#held = new Promise<TenantContext | null>((_resolve, reject) => {
      fail = () => reject(new Error('the database went away'));
    });
    return fail;
  }

  override byCode(code: string): Promise<TenantContext | null> {
    const held = this.#held;
    this.#held = undefined;
    return held ?? super.byCode(code);
  }
}

describe('the provider registry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('keeps a newer provider when an older build, started before a change, fails', async () => {
    const tenants = new HeldDirectory(t.services.db);
    const events: ProviderCacheEvent[] = [];
    const registry = new ProviderRegistry({
      config: t.services.config,
      db: t.services.db,
      secrets: t.services.secrets,
      tenants,
      clock: t.clock,
      log: t.app.log,
      pages: t.services.providers.pages,
      observe: (event) => events.push(event),
    });
    const tenant = await tenants.byCode('grand-hotel');
    if (!tenant) throw new Error('no demo tenant');

    // A build starts and waits on the database; the tenant changes meanwhile, and the next
    // request builds afresh.
    const fail = tenants.holdNext();
    const older = registry.get(tenant);
    registry.invalidate('grand-hotel');
    const newer = registry.get(tenant);
    await newer;
    // Now the older build fails: the newer provider stays cached.
    fail();
    await expect(older).rejects.toThrow('the database went away');
    expect(await registry.get(tenant)).toBe(await newer);
    expect(events).toEqual(['miss', 'evict', 'rebuild', 'hit']);
  });
});
