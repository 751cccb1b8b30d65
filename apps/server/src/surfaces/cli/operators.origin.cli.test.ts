import { operatorTenantCode } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairOperatorTenant } from '../../features/operators/index.ts';
import { systemActor } from '../../platform/audit/audit.service.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { parseOperatorsArgs, runOperatorsCommand } from './operators.cli.ts';

/**
 * Issue 19: the server ran on port 4000 and create-owner, run in another shell, wrote the
 * console's addresses with port 3000; the console's sign-in was then refused.
 */
describe.each(engines)('create-owner writes the addresses the server answers on (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { seed: false });
  });
  afterAll(() => t.close());

  const configOn = (port: string) => ({ ...t.config, port: Number(port), publicPort: Number(port) });
  const consoleClient = async () => {
    const row = await t.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', 'keycard-console')
      .executeTakeFirstOrThrow();
    return JSON.parse(row.metadata) as { redirect_uris: string[]; post_logout_redirect_uris: string[] };
  };
  const run = async (argv: string[], env: NodeJS.ProcessEnv, port = '3000') => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOperatorsCommand(parseOperatorsArgs(argv), {
      db: t.services.db,
      config: configOn(port),
      now: t.clock.now(),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('takes the port of the server started on the same DATA_DIR, refuses a PORT that disagrees, and repairs a wrong one', async () => {
    // A first run before any server recorded its port writes the default one (3000)…
    const first = await run(['create-owner', '--email', 'owner@example.com'], {});
    expect(first.code).toBe(0);
    expect(new URL(first.out.trim()).origin).toBe('http://admin.localhost:3000');
    expect((await consoleClient()).redirect_uris).toEqual(['http://admin.localhost:3000/console/callback']);

    // …then the server starts on port 4000, records it and aligns the addresses at start.
    await repairOperatorTenant(
      { db: t.services.db, config: configOn('4000'), actor: systemActor },
      t.clock.now(),
    );
    expect(await consoleClient()).toMatchObject({
      redirect_uris: ['http://admin.localhost:4000/console/callback'],
      post_logout_redirect_uris: ['http://admin.localhost:4000/console/'],
    });

    // A run without PORT takes the server's port, says so, and its link is on that port.
    const second = await run(['create-owner', '--email', 'owner@example.com'], {});
    expect(second.code).toBe(0);
    expect(second.err).toContain("Using the server's address http://admin.localhost:4000");
    expect(second.err).toContain('http://admin.localhost:4000/console/');
    expect(new URL(second.out.trim()).origin).toBe('http://admin.localhost:4000');

    // A run with a PORT that disagrees with the server's writes nothing and names PUBLIC_PORT.
    const wrong = await run(['create-owner', '--email', 'owner@example.com'], { PORT: '3000' });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toBe('');
    expect(wrong.err).toContain('http://admin.localhost:4000');
    expect(wrong.err).toContain('PUBLIC_PORT');
    const agreeing = await run(
      ['create-owner', '--email', 'owner@example.com'],
      { PUBLIC_PORT: '4000' },
      '4000',
    );
    expect(agreeing.code).toBe(0);

    // An operator tenant left with another port (an older CLI) is repaired by re-running.
    await t.services.db
      .updateTable('oidc_clients')
      .set({
        metadata: JSON.stringify({
          ...(await consoleClient()),
          redirect_uris: ['http://admin.localhost:3000/console/callback'],
          post_logout_redirect_uris: ['http://admin.localhost:3000/console/'],
        }),
      })
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', 'keycard-console')
      .execute();
    const repaired = await run(['create-owner', '--email', 'owner@example.com'], {});
    expect(repaired.code).toBe(0);
    expect(await consoleClient()).toMatchObject({
      redirect_uris: ['http://admin.localhost:4000/console/callback'],
      post_logout_redirect_uris: ['http://admin.localhost:4000/console/'],
    });
    const tenant = await t.services.db
      .selectFrom('tenants')
      .select('default_redirect_uri')
      .where('code', '=', operatorTenantCode)
      .executeTakeFirstOrThrow();
    expect(tenant.default_redirect_uri).toBe('http://admin.localhost:4000/console/');
  });
});
