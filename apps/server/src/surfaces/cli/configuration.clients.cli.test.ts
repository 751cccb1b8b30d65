import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { findPartner } from '../../features/partners/partner.repository.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { engines } from '../../test/helper.ts';
import { tenantFile, useConfigurationCli } from './configuration.cli.test-support.ts';

describe.each(engines)('keycard apply on %s: clients and partners removed or disabled', (engine) => {
  const cli = useConfigurationCli(engine);
  const { run, write, tenantRow, clientOf } = cli;

  it('removes clients and partners the file leaves out only with prune, dry-run first', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'prune-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const kiosk = {
      ...clients[0],
      clientId: `${tenant.code}-kiosk`,
      redirectUris: ['https://kiosk.example/cb'],
    };
    const partner = {
      code: 'booking',
      issuer: 'https://booking.example',
      jwksUri: 'https://booking.example/jwks',
    };
    const full = { ...tenant, clients: [...clients, kiosk], partners: [partner] };
    expect((await run('apply', '-f', write('prune-1.yaml', { tenants: [full] }))).code).toBe(0);
    const version = (await tenantRow(tenant.code))!.version;

    // Left out without prune: nothing is removed.
    const short = { ...tenant, clients, partners: [] };
    const kept = await run('apply', '-f', write('prune-2.yaml', { tenants: [short] }));
    expect(kept.out).toContain('No changes');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeDefined();

    const file = write('prune-3.yaml', { tenants: [{ ...short, prune: true }] });
    const dry = await run('apply', '-f', file, '--dry-run');
    expect(dry.out).toContain(`- client ${tenant.code}-kiosk of ${tenant.code}: remove`);
    expect(dry.out).toContain('    redirectUris: ["https://kiosk.example/cb"]');
    expect(dry.out).toContain(`- partner booking of ${tenant.code}: remove`);
    expect(dry.out).toContain('2 to remove');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeDefined();

    const applied = await run('apply', '-f', file);
    expect(applied, applied.err).toMatchObject({ code: 0 });
    expect(applied.out).toContain('2 removed');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeUndefined();
    expect(await clientOf(tenant.code, `${tenant.code}-app`)).toMatchObject({
      client_secret: hashClientSecret('prune-secret'),
    });
    expect(await findPartner(cli.app.services.db, tenant.code, 'booking')).toBeNull();
    // Running servers drop the tenant's provider, and with it the removed client.
    expect((await tenantRow(tenant.code))!.version).toBeGreaterThan(version);
    expect((await run('apply', '-f', file)).out).toContain('No changes');
  });

  it('audits a pruned client and partner as removals, with what they were', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'prune-audit-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const extra = {
      ...clients[0],
      clientId: `${tenant.code}-extra`,
      redirectUris: ['https://extra.example/cb'],
    };
    const partner = {
      code: 'pruned',
      issuer: 'https://pruned.example',
      jwksUri: 'https://pruned.example/jwks',
    };
    const full = { ...tenant, clients: [...clients, extra], partners: [partner] };
    expect((await run('apply', '-f', write('prune-audit-1.yaml', { tenants: [full] }))).code).toBe(0);
    const pruned = await run(
      'apply',
      '-f',
      write('prune-audit-2.yaml', { tenants: [{ ...tenant, clients, partners: [], prune: true }] }),
    );
    expect(pruned, pruned.err).toMatchObject({ code: 0 });
    const entries = await cli.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_code', '=', tenant.code)
      .where('target_id', 'in', [`${tenant.code}-extra`, 'pruned'])
      .orderBy('id')
      .execute();
    const actions = entries.map((entry) => `${entry.action} ${entry.target_id}`);
    expect(actions).toEqual([
      `client.create ${tenant.code}-extra`,
      'partner.create pruned',
      `client.remove ${tenant.code}-extra`,
      'partner.remove pruned',
    ]);
    const removal = entries.find((entry) => entry.action === 'client.remove')!;
    expect(removal.actor_kind).toBe('apply');
    expect(JSON.parse(removal.before!)).toMatchObject({ redirectUris: ['https://extra.example/cb'] });
    expect(removal.after).toBeNull();
    expect(await findPartner(cli.app.services.db, tenant.code, 'pruned')).toBeNull();
  });

  it('disables and enables a client with disabled, keeping its secret, and exports the switch', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'disable-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const kioskId = `${tenant.code}-kiosk`;
    const kiosk = { clientId: kioskId, redirectUris: ['https://kiosk.example/cb'] };
    const file = (disabled?: boolean) =>
      write(`disable-${disabled}.yaml`, {
        tenants: [
          { ...tenant, clients: [...clients, { ...kiosk, ...(disabled === undefined ? {} : { disabled }) }] },
        ],
      });
    const created = await run('apply', '-f', file());
    expect(created.out).not.toContain('disabled');
    const secret = (await clientOf(tenant.code, kioskId))!.client_secret;
    expect(secret).toEqual(expect.any(String));
    const disabledRow = () =>
      cli.app.services.db
        .selectFrom('disabled_clients')
        .select('metadata')
        .where('tenant_code', '=', tenant.code)
        .where('client_id', '=', kioskId)
        .executeTakeFirst();

    const disabled = await run('apply', '-f', file(true));
    expect(disabled, disabled.err).toMatchObject({ code: 0 });
    expect(disabled.out).toContain(`~ client ${kioskId} of ${tenant.code}: change`);
    expect(disabled.out).toContain('    disabled: false → true');
    // Out of the provider's sight, in one table only, its secret kept.
    expect(await clientOf(tenant.code, kioskId)).toBeUndefined();
    expect(JSON.parse((await disabledRow())!.metadata).client_secret).toBe(secret);
    expect((await run('apply', '-f', file(true))).out).toContain('No changes');

    const exported = await run('export', '--tenant', tenant.code);
    expect(parse(exported.out).tenants[0].clients).toContainEqual(
      expect.objectContaining({ clientId: kioskId, disabled: true }),
    );
    expect((await run('apply', '-f', write('disable-export.yaml', exported.out))).out).toContain(
      'No changes',
    );

    // The file's value wins: a file without the switch enables the client again.
    const enabled = await run('apply', '-f', file());
    expect(enabled.out).toContain('    disabled: true → false');
    expect(await disabledRow()).toBeUndefined();
    expect((await clientOf(tenant.code, kioskId))!.client_secret).toBe(secret);
  });

  it('refuses to disable the login client, naming the field', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'login-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const file = write('disable-login.yaml', {
      tenants: [{ ...tenant, clients: [{ ...clients[0], disabled: true }] }],
    });
    const result = await run('apply', '-f', file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `${file}: tenants[0].clients[0].disabled: the login client ${tenant.code}-app cannot be disabled`,
    );
    expect(await tenantRow(tenant.code)).toBeUndefined();
  });
});
