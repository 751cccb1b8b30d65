import type { AdminRole } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../test/helper.ts';
import { cliActor } from './audit.service.ts';
import { createMachineClient } from './operators.service.ts';

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
  options: { token?: string; body?: unknown; host?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { host: options.host ?? adminHost, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  return app.inject({
    method: method as 'GET',
    url: url.startsWith('/admin') ? url : `/admin/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}
