import { type AdminPermission, type AdminRole, adminApi } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { z } from 'zod';
import { hashPassword } from '../../features/accounts/password.service.ts';
import { createMachineClient } from '../../features/operators/operators.service.ts';
import { cliActor } from '../../platform/audit/audit.service.ts';
import { successStatus } from '../../platform/http/route.ts';
import { demo, type TestApp } from '../../test/helper.ts';
import { adminRoutes } from './admin.routes.ts';

export const adminHost = 'admin.localhost:3000';

/** A machine operator with the role, and a fresh access token from the operator tenant. */
export async function operatorToken(
  t: TestApp,
  clientId: string,
  role: AdminRole,
  tenants: string[] | null = null,
): Promise<string> {
  const { secret } = await createMachineClient(
    { db: t.services.db, config: t.config, actor: cliActor },
    { clientId, role, tenants },
    Date.now(),
  );
  // What every instance's poll does within a second: the operator tenant's provider is rebuilt.
  await t.services.tenants.refresh();
  return clientCredentialsToken(t.app, clientId, secret);
}

export async function clientCredentialsToken(
  app: FastifyInstance,
  clientId: string,
  secret: string,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: {
      host: adminHost,
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });
  if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
  return (response.json() as { access_token: string }).access_token;
}

/** Calls the admin API as a machine would: bearer token, no cookies, no Origin. */
export function adminCall(
  app: FastifyInstance,
  method: string,
  url: string,
  options: {
    token?: string;
    body?: unknown;
    host?: string;
    headers?: Record<string, string>;
    /** The client's address (default 127.0.0.1). */
    remoteAddress?: string;
  } = {},
) {
  const headers: Record<string, string> = { host: options.host ?? adminHost, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload =
      typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
  }
  return app.inject({
    method: method as 'GET',
    url: url.startsWith('/admin') ? url : `/admin/api/v1${url}`,
    headers,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A 1×1 PNG. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An ICO file holding the PNG above (an ICO entry may be a PNG). */
export function tinyIco(): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(1, 6);
  header.writeUInt8(1, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(tinyPng.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, tinyPng]);
}

/** A WebP container (lossless chunk) of the right shape. */
export function tinyWebp(): Buffer {
  const chunk = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x08, 0x00, 0x00]);
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(12 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write('VP8L', 12, 'latin1');
  header.writeUInt32LE(chunk.length, 16);
  return Buffer.concat([header, chunk]);
}

/** A valid theme for a tenant a test creates (contract theme schema), named `name`. */
export function testTheme(name: string) {
  return {
    name,
    images: { logo: '/brand/logo.svg', favicon: '/brand/favicon.svg' },
    colours: {
      primaryBackground: '#1f3a5f',
      primaryForeground: '#ffffff',
      secondaryBackground: '#f5efe6',
      secondaryForeground: '#1a1a1a',
      tertiaryBackground: '#7a5c2e',
      tertiaryForeground: '#ffffff',
    },
    links: { loginHelpUrl: null, contactSupportUrl: null },
  };
}

/** An admin route as the role tests read it: its path under /admin/api/v1 and who may call it. */
export interface AdminRouteRow {
  method: string;
  /** Under /admin/api/v1, Fastify style (`:code`). */
  path: string;
  permission: AdminPermission | null;
  ownerOnly: boolean;
  status: number;
  /** The success schema (none for an export of JSON lines). */
  response: z.ZodType | null;
  /** An image upload rather than JSON. */
  upload: boolean;
}

/** The admin route table (admin.routes.ts), in its order. */
export const adminRouteTable: AdminRouteRow[] = adminRoutes.map((route) => {
  if (typeof route.auth !== 'object') throw new Error(`${route.path} is not an admin operation`);
  const status = successStatus(route);
  return {
    method: route.method,
    path: route.path.slice(adminApi.base.length),
    permission: route.auth.admin.permission,
    ownerOnly: route.auth.admin.ownerOnly === true,
    status,
    response: route.format === 'ndjson' ? null : (route.responses[status] ?? null),
    upload: route.raw !== undefined,
  };
});

/** The Grand Hotel theme, and a tenant of its own made with it. */
export const grandTheme = {
  name: 'Grand Hotel Group',
  images: { favicon: '/brand/grand-hotel-favicon.svg', logo: '/brand/grand-hotel-logo.svg' },
  colours: {
    primaryBackground: '#1f3a5f',
    primaryForeground: '#ffffff',
    secondaryBackground: '#f5efe6',
    secondaryForeground: '#1a1a1a',
    tertiaryBackground: '#7a5c2e',
    tertiaryForeground: '#ffffff',
  },
  links: {
    loginHelpUrl: 'https://help.grand-hotel.example/login-help',
    contactSupportUrl: 'https://help.grand-hotel.example/support',
  },
};

export function newTenant(code: string) {
  return {
    code,
    aliasCode: null,
    loginDomain: `${code}.localhost`,
    aliasDomains: [],
    defaultRedirectUri: 'https://app.example.com/',
    loginClientId: `${code}-app`,
    theme: { ...grandTheme, name: `Tenant ${code}` },
    settings: { mfa: { mode: 'recommended' } },
    clients: [{ clientId: `${code}-app`, redirectUris: ['https://app.example.com/callback'] }],
  };
}

/** Helpers of the admin API tests, for the test app and owner token of a suite. */
export function adminFixtures(app: () => TestApp, ownerToken: () => string) {
  /** A tenant of its own for a test, created through the API. */
  async function tenantFor(code: string) {
    const created = await adminCall(app().app, 'POST', '/tenants', {
      token: ownerToken(),
      body: newTenant(code),
    });
    expect(created.statusCode).toBe(201);
    return created.json();
  }

  async function factorsOf(userId: string): Promise<number> {
    const rows = await app()
      .services.db.selectFrom('mfa_factors')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    return rows.length;
  }

  /** Gives an account the demo password (as if it had been activated). */
  async function activeUserPassword(userId: string): Promise<void> {
    const hash = await hashPassword(demo.password);
    await app()
      .services.db.updateTable('users')
      .set({ password_hash: hash, password_changed_at: Date.now() })
      .where('id', '=', userId)
      .execute();
  }

  async function invitedUser(code: string, email: string): Promise<string> {
    const invited = await adminCall(app().app, 'POST', `/tenants/${code}/users`, {
      token: ownerToken(),
      body: { email, type: 'staff' },
    });
    expect(invited.statusCode).toBe(201);
    return invited.json().user.id;
  }

  return { tenantFor, factorsOf, activeUserPassword, invitedUser };
}
