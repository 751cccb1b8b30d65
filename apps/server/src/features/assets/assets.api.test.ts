import { adminErrors, adminTenantSchema, apiErrorSchema } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  operatorToken,
  tinyIco,
  tinyPng,
  tinyWebp,
} from '../../surfaces/admin/admin.test-support.ts';
import { buildTestApp, call, demo, engines, type TestApp } from '../../test/helper.ts';

describe.each(engines)('theme image uploads on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'image-owner', 'owner');
  });
  afterAll(() => t.close());

  const upload = (
    slot: 'logo' | 'favicon',
    contentType: string,
    body: Buffer | string,
    code = 'grand-hotel',
  ) =>
    adminCall(t.app, 'PUT', `/tenants/${code}/theme/${slot}`, {
      token: owner,
      body: Buffer.isBuffer(body) ? body : Buffer.from(body),
      headers: { 'content-type': contentType },
    });

  it('stores a checked image, points the theme at it, and serves it on the tenant host, sandboxed', async () => {
    const answer = await upload('logo', 'image/png', tinyPng);
    expect(answer.statusCode).toBe(200);
    const tenant = adminTenantSchema.parse(answer.json());
    expect(tenant.theme.images.logo).toMatch(/^\/_keycard\/assets\/grand-hotel\/[0-9a-f]{64}\.png$/);
    const served = await call(t.app, 'GET', tenant.theme.images.logo, { host: demo.grandHotel.host });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(tinyPng)).toBe(true);
    // The portal's theme shows it at once on this instance (every other within a second).
    const theme = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost', {
      host: demo.grandHotel.host,
    });
    expect(theme.json().theme.images.logo).toBe(tenant.theme.images.logo);
    const audit = await adminCall(t.app, 'GET', '/audit?tenant=grand-hotel&action=tenant.update', {
      token: owner,
    });
    expect(JSON.stringify(audit.json().entries[0].after)).toContain(tenant.theme.images.logo);

    for (const [type, body] of [
      ['image/x-icon', tinyIco()],
      ['image/vnd.microsoft.icon', tinyIco()],
      ['image/webp', tinyWebp()],
      ['image/png', tinyPng],
    ] as const) {
      expect((await upload('favicon', type, body)).statusCode, type).toBe(200);
    }
  });

  it('serves an uploaded SVG sanitised: no script, handler or external reference survives', async () => {
    const hostile =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><image href="https://tracker.example/p.png"/><rect width="4" height="4" fill="#123456"/></svg>';
    const answer = await upload('logo', 'image/svg+xml', hostile);
    expect(answer.statusCode).toBe(200);
    const path = adminTenantSchema.parse(answer.json()).theme.images.logo;
    const served = await call(t.app, 'GET', path, { host: demo.grandHotel.host });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4" fill="#123456"/></svg>',
    );
  });

  it('refuses what is not what it claims, the wrong type for the slot, and oversized images', async () => {
    const cases: Array<[string, 'logo' | 'favicon', string, Buffer | string, number, string]> = [
      [
        'text claiming PNG',
        'logo',
        'image/png',
        'not a png at all, just text',
        422,
        adminErrors.imageInvalid,
      ],
      ['an SVG claiming PNG', 'logo', 'image/png', '<svg/>', 422, adminErrors.imageInvalid],
      ['a PNG claiming WebP', 'logo', 'image/webp', tinyPng, 422, adminErrors.imageInvalid],
      ['a PNG claiming ICO', 'favicon', 'image/x-icon', tinyPng, 422, adminErrors.imageInvalid],
      ['an ICO for a logo', 'logo', 'image/x-icon', tinyIco(), 422, adminErrors.imageInvalid],
      [
        'an SVG with entities',
        'logo',
        'image/svg+xml',
        '<!DOCTYPE svg [<!ENTITY a "b">]><svg/>',
        422,
        adminErrors.imageInvalid,
      ],
      ['a GIF', 'logo', 'image/gif', 'GIF89a', 415, 'common.unsupported_media_type'],
      [
        'a favicon over 64 KiB',
        'favicon',
        'image/png',
        Buffer.concat([tinyPng, Buffer.alloc(70 * 1024)]),
        413,
        adminErrors.imageTooLarge,
      ],
      [
        'a logo over 256 KiB',
        'logo',
        'image/png',
        Buffer.concat([tinyPng, Buffer.alloc(300 * 1024)]),
        413,
        'common.payload_too_large',
      ],
    ];
    const before = await adminCall(t.app, 'GET', '/tenants/seaside', { token: owner });
    for (const [name, slot, type, body, status, code] of cases) {
      const answer = await upload(slot, type, body, 'seaside');
      expect(answer.statusCode, name).toBe(status);
      expect(apiErrorSchema.parse(answer.json()).code, name).toBe(code);
    }
    const after = await adminCall(t.app, 'GET', '/tenants/seaside', { token: owner });
    expect(after.json().theme).toEqual(before.json().theme);
  });

  it('lets only operators who may change the tenant upload', async () => {
    const auditor = await operatorToken(t, 'image-auditor', 'auditor');
    const admin = await operatorToken(t, 'image-admin', 'tenant_admin', ['seaside']);
    const asAuditor = await adminCall(t.app, 'PUT', '/tenants/seaside/theme/logo', {
      token: auditor,
      body: tinyPng,
      headers: { 'content-type': 'image/png' },
    });
    expect(asAuditor.statusCode).toBe(403);
    const otherTenant = await adminCall(t.app, 'PUT', '/tenants/grand-hotel/theme/logo', {
      token: admin,
      body: tinyPng,
      headers: { 'content-type': 'image/png' },
    });
    expect(otherTenant.statusCode).toBe(403);
    const missing = await call(t.app, 'GET', `/_keycard/assets/seaside/${'0'.repeat(64)}.png`, {
      host: demo.seaside.host,
    });
    expect(missing.statusCode).toBe(404);
  });
});
