import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import {
  newUser,
  passwordSignIn,
  startOfWindow,
  summit,
  updateTenantSettings,
} from '../mfa/mfa.test-support.ts';

/** A local analytics collector standing in for the provider: records what it receives. */
async function startCollector() {
  const received: unknown[] = [];
  let failing = false;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ contentType: request.headers['content-type'], body: JSON.parse(body) });
      response.writeHead(failing ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/collect`,
    received,
    fail: (value: boolean) => {
      failing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(engines)('analytics events API on %s', (engine) => {
  let t: TestApp;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
    t = await buildTestApp(engine, { env: { ANALYTICS_URL: collector.url } });
  });
  afterAll(async () => {
    await t.close();
    await collector.close();
  });

  const send = (body: unknown, options: { cookie?: string; host?: string; origin?: string } = {}) =>
    call(t.app, 'POST', '/api/analytics/events', { host: options.host ?? summit.host, body, ...options });

  const stored = (tenantCode: string) =>
    t.services.db
      .selectFrom('analytics_events')
      .selectAll()
      .where('tenant_code', '=', tenantCode)
      .orderBy('created_at')
      .execute();

  it('stores an event per tenant with the user type from the session (not the page)', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const response = await send(
      { event: 'mfa_verification_required', properties: { userType: 'partner', deliveryType: 'totp' } },
      { cookie },
    );
    expect(response.statusCode).toBe(202);
    const rows = await stored('summit');
    expect(rows.at(-1)).toMatchObject({
      event: 'mfa_verification_required',
      user_type: 'property',
      forwarded_at: null,
    });
    expect(JSON.parse(rows.at(-1)!.properties)).toEqual({ deliveryType: 'totp' });
  });

  it('forwards to the provider only for tenants with an analytics id, without personal data', async () => {
    await updateTenantSettings(t, 'summit', { analyticsId: 'G-SUMMIT123' });
    try {
      const who = await newUser(t);
      const { cookie } = await passwordSignIn(t.app, who);
      const before = collector.received.length;
      expect((await send({ event: 'mfa_success', properties: {} }, { cookie })).statusCode).toBe(202);
      expect(collector.received.length).toBe(before + 1);
      const forwarded = collector.received.at(-1) as { contentType: string; body: Record<string, unknown> };
      expect(forwarded.contentType).toBe('application/json');
      expect(forwarded.body).toEqual({
        analyticsId: 'G-SUMMIT123',
        event: 'mfa_success',
        timestamp: expect.any(Number),
        properties: { userType: 'property', tenant: 'summit', deliveryType: null },
      });
      expect(JSON.stringify(forwarded.body)).not.toContain(who.email);
      expect((await stored('summit')).at(-1)?.forwarded_at).not.toBeNull();

      // A tenant without an id: stored, never forwarded.
      const count = collector.received.length;
      await send({ event: 'mfa_failed' }, { host: 'grand-hotel.localhost:3000' });
      expect(collector.received.length).toBe(count);
      expect((await stored('grand-hotel')).at(-1)).toMatchObject({ event: 'mfa_failed', user_type: null });

      // A provider that fails: the event is kept with the reason; the page is not bothered.
      collector.fail(true);
      expect((await send({ event: 'mfa_reset' }, { cookie })).statusCode).toBe(202);
      expect((await stored('summit')).at(-1)).toMatchObject({
        event: 'mfa_reset',
        forward_error: 'analytics.http_503',
      });
    } finally {
      collector.fail(false);
      await updateTenantSettings(t, 'summit', { analyticsId: null });
    }
  });

  it('validates events and properties, and refuses cross-site posts', async () => {
    for (const body of [
      { event: 'page_view' },
      { event: 'mfa_success', properties: { email: 'x@y.z' } },
      { event: 'mfa_success', properties: { userType: 'admin' } },
      {},
    ]) {
      const response = await send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('common.validation_failed');
    }
    const crossSite = await send({ event: 'mfa_success' }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
  });

  it('limits events per client and tenant to 60 a minute', async () => {
    startOfWindow(t, 60_000);
    const host = 'seaside.localhost:3000';
    const answers: number[] = [];
    // All 61 in the same minute however slow the machine: the server's clock held at its start.
    const start = t.clock.now();
    for (let i = 0; i < 61; i++) {
      t.clock.advance(start - t.clock.now());
      answers.push((await send({ event: 'mfa_register' }, { host })).statusCode);
    }
    expect(answers.filter((s) => s === 202)).toHaveLength(60);
    expect(answers.at(-1)).toBe(429);
  });
});
