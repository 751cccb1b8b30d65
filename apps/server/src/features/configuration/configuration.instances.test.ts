import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { loginDomainResponse, tokenExchange } from '@keycard/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { type Db, openDatabase } from '../../platform/db/database.ts';
import { runCli } from '../../surfaces/cli/cli.ts';
import { Browser, type Fetcher } from '../../test/http-client.ts';
import { type Cluster, twoInstances } from '../../test/instances.ts';

/**
 * docs/configuration.md, "When changes take effect": what `keycard apply` writes reaches every
 * running instance within 5 s, without a restart. Two instances serve one PostgreSQL database;
 * the command runs as an operator runs it, with a database connection of its own, while both
 * serve. Each check first makes both instances cache the old state (a host name known to be
 * unknown, a theme, a provider with its clients), then applies the change and measures, on each
 * instance, how long until it answers the new way.
 */

const promise = 5000;

// The portal's real page template (Vite only adds its script and stylesheet links to it), so
// the instances serve the branded first paint.
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
).replace('</head>', '<script type="module" src="/assets/index-test.js"></script></head>');

const code = 'live';
const colours = {
  primaryBackground: '#1f3a5f',
  primaryForeground: '#ffffff',
  secondaryBackground: '#f5efe6',
  secondaryForeground: '#1a1a1a',
  tertiaryBackground: '#7a5c2e',
  tertiaryForeground: '#ffffff',
};

/** The tenant as the operator's file says it, changed step by step by the tests. */
function liveTenant(overrides: Record<string, unknown> = {}) {
  return {
    code,
    loginDomain: 'live.localhost',
    defaultRedirectUri: 'https://pms.live.example/',
    loginClientId: 'live-pms',
    theme: {
      name: 'Live Hotels',
      images: { logo: '/brand/live-logo.svg', favicon: '/brand/live-favicon.svg' },
      colours,
      links: { loginHelpUrl: null, contactSupportUrl: null },
    },
    clients: [
      {
        clientId: 'live-pms',
        redirectUris: ['https://pms.live.example/callback'],
        secretEnv: 'LIVE_PMS_SECRET',
      },
      {
        clientId: 'live-kiosk',
        redirectUris: ['https://kiosk.live.example/callback'],
        grantTypes: ['authorization_code', 'refresh_token'],
        secretEnv: 'LIVE_KIOSK_SECRET',
      },
    ],
    ...overrides,
  };
}

describe('changes by keycard apply on two instances on one PostgreSQL database', () => {
  let cluster: Cluster;
  let cli: Db;
  let dist: string;
  let files = 0;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-live-'));
    writeFileSync(path.join(dist, 'index.html'), template);
    mkdirSync(path.join(dist, 'assets'));
    cluster = await twoInstances({ portalDist: dist });
    // The operator's command: a process of its own, with its own connections.
    cli = await openDatabase({ databaseUrl: cluster.t.config.databaseUrl });
  });
  afterAll(async () => {
    await cli.close();
    await cluster.close();
    rmSync(dist, { recursive: true, force: true });
  });
  beforeAll(() => {
    vi.stubEnv('LIVE_PMS_SECRET', 'live-pms-secret');
    vi.stubEnv('LIVE_KIOSK_SECRET', 'live-kiosk-secret');
  });
  afterAll(() => vi.unstubAllEnvs());
  afterEach(() => {
    expect(cluster.instances).toHaveLength(2);
  });

  /** keycard apply -f <file> with the tenant as given; answers what it printed. */
  async function apply(tenant: Record<string, unknown>): Promise<string> {
    files += 1;
    const file = path.join(dist, `live-${files}.yaml`);
    writeFileSync(file, stringify({ tenants: [tenant] }));
    const out: string[] = [];
    const err: string[] = [];
    const exit = await runCli(['apply', '-f', file], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      database: cli,
      config: cluster.t.config,
      now: () => cluster.t.clock.now(),
    });
    expect(exit, err.join('\n')).toBe(0);
    return out.join('\n');
  }

  /**
   * Milliseconds until `check` holds on every instance (each polled every 50 ms, from the
   * moment the change was written), or a failure naming the instance that missed the promise.
   */
  async function timeUntilEveryInstance(check: (fetcher: Fetcher) => Promise<boolean>): Promise<number[]> {
    const started = Date.now();
    return Promise.all(
      cluster.instances.map(async (instance, index) => {
        for (;;) {
          if (await check(instance.fetch)) return Date.now() - started;
          if (Date.now() - started > promise) {
            throw new Error(`instance ${index + 1} still answers the old way after ${promise} ms`);
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
  }

  const origin = (host: string) => `http://${host}:${cluster.t.config.port}`;

  /** The theme endpoint on a host, checked against its contract schema when it answers. */
  async function themeOn(fetcher: Fetcher, host: string) {
    const response = await fetcher(`${origin(host)}/api/login-domains/${host}`);
    if (response.status !== 200) return { status: response.status, body: null };
    return { status: 200, body: loginDomainResponse.parse(await response.json()) };
  }

  /** An authorization request as an app's browser sends it: where the provider sends it on. */
  async function authorize(fetcher: Fetcher, clientId: string, redirectUri: string) {
    const url = new URL(`${origin('live.localhost')}/oidc/auth`);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'state-0123456789',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWvifWuNuJcMA',
      code_challenge_method: 'S256',
    }).toString();
    const response = await new Browser(fetcher).fetch(url.href);
    return { status: response.status, location: response.headers.get('location') ?? '' };
  }
  /** The provider opened an interaction: the client and its redirect URI were accepted. */
  const accepted = (answer: { status: number; location: string }) =>
    answer.status >= 300 && answer.status < 400 && answer.location.startsWith('/login?iid=');
  /** The provider refused the request itself and sent the browser nowhere (invariant 2). */
  const refused = (answer: { status: number; location: string }) => answer.status === 400 && !answer.location;

  /** POST /oidc/token as the client's back end, with a code that does not exist. */
  async function tokenRequest(fetcher: Fetcher, clientId: string, secret: string) {
    const response = await fetcher(`${origin('live.localhost')}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'no-such-code',
        redirect_uri: 'https://kiosk.live.example/callback',
        code_verifier: 'dBjftJeZ4CVP-mJ92K5jVbT6X4C3bYgs3m1d2hmG5Fk',
      }).toString(),
    });
    return { status: response.status, error: ((await response.json()) as { error: string }).error };
  }

  it('creates the tenant, and both instances serve it within 5 s', async () => {
    const plan = await apply(liveTenant());
    expect(plan).toContain(`+ tenant ${code}: create`);
    const times = await timeUntilEveryInstance(
      async (fetcher) => (await themeOn(fetcher, 'live.localhost')).body?.tenant.code === code,
    );
    expect(Math.max(...times)).toBeLessThan(promise);
  });

  it('answers a new login domain on every instance within 5 s', async () => {
    // Both instances remember the host name as unknown.
    for (const instance of cluster.instances) {
      expect((await themeOn(instance.fetch, 'login.live.localhost')).status).toBe(404);
    }
    await apply(liveTenant({ aliasDomains: ['login.live.localhost'] }));
    const times = await timeUntilEveryInstance(async (fetcher) => {
      const answer = await themeOn(fetcher, 'login.live.localhost');
      return answer.body?.tenant.code === code && answer.body.domain === 'login.live.localhost';
    });
    expect(Math.max(...times)).toBeLessThan(promise);
    // The page on the new domain is the tenant's own first paint.
    const page = await cluster.instances[1]!.fetch(`${origin('login.live.localhost')}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`--kc-primary-bg:${colours.primaryBackground}`);
  });

  it('shows a new theme, colours and logo, in the theme endpoint and the first paint within 5 s', async () => {
    const etags = new Map<number, string>();
    for (const [index, instance] of cluster.instances.entries()) {
      const response = await instance.fetch(`${origin('live.localhost')}/api/login-domains/live.localhost`);
      expect(response.status).toBe(200);
      etags.set(index, String(response.headers.get('etag')));
      expect(await (await instance.fetch(`${origin('live.localhost')}/login`)).text()).toContain(
        `--kc-primary-bg:${colours.primaryBackground}`,
      );
    }
    const theme = {
      name: 'Live Hotels & Resorts',
      images: { logo: '/brand/live-logo-2027.svg', favicon: '/brand/live-favicon-2027.svg' },
      colours: { ...colours, primaryBackground: '#0b3954', tertiaryBackground: '#8a3b12' },
      links: { loginHelpUrl: 'https://help.live.example/login', contactSupportUrl: null },
    };
    const plan = await apply(liveTenant({ aliasDomains: ['login.live.localhost'], theme }));
    expect(plan).toContain('theme.colours.primaryBackground: "#1f3a5f" → "#0b3954"');

    const times = await timeUntilEveryInstance(async (fetcher) => {
      const answer = await themeOn(fetcher, 'live.localhost');
      if (!isDeepStrictEqual(answer.body?.theme, theme)) return false;
      const html = await (await fetcher(`${origin('live.localhost')}/login`)).text();
      return (
        html.includes(`--kc-primary-bg:${theme.colours.primaryBackground}`) &&
        html.includes(`src="${theme.images.logo}"`) &&
        html.includes(`<link rel="icon" href="${theme.images.favicon}">`)
      );
    });
    expect(Math.max(...times)).toBeLessThan(promise);
    // A browser revalidating its copy of the old theme by ETag gets the new one, not a 304.
    for (const [index, instance] of cluster.instances.entries()) {
      const response = await instance.fetch(`${origin('live.localhost')}/api/login-domains/live.localhost`, {
        headers: { 'if-none-match': etags.get(index)! },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('honours a changed redirect URI list on every instance within 5 s', async () => {
    const oldUri = 'https://kiosk.live.example/callback';
    const newUri = 'https://kiosk-2.live.example/callback';
    // Both instances have built the tenant's provider with the client's old URIs.
    for (const instance of cluster.instances) {
      expect(accepted(await authorize(instance.fetch, 'live-kiosk', oldUri))).toBe(true);
      expect(refused(await authorize(instance.fetch, 'live-kiosk', newUri))).toBe(true);
    }
    const tenant = liveTenant({ aliasDomains: ['login.live.localhost'] });
    const clients = tenant.clients.map((client) =>
      client.clientId === 'live-kiosk' ? { ...client, redirectUris: [newUri] } : client,
    );
    const plan = await apply({ ...tenant, clients });
    expect(plan).toContain(`redirectUris: ["${oldUri}"] → ["${newUri}"]`);

    const times = await timeUntilEveryInstance(
      async (fetcher) =>
        accepted(await authorize(fetcher, 'live-kiosk', newUri)) &&
        refused(await authorize(fetcher, 'live-kiosk', oldUri)),
    );
    expect(Math.max(...times)).toBeLessThan(promise);
  });

  it('refuses a disabled client on every instance within 5 s, and takes it back when enabled', async () => {
    const kioskUri = 'https://kiosk-2.live.example/callback';
    const tenant = liveTenant({ aliasDomains: ['login.live.localhost'] });
    const withKiosk = (disabled: boolean) => ({
      ...tenant,
      clients: tenant.clients.map((client) =>
        client.clientId === 'live-kiosk' ? { ...client, redirectUris: [kioskUri], disabled } : client,
      ),
    });
    for (const instance of cluster.instances) {
      expect(accepted(await authorize(instance.fetch, 'live-kiosk', kioskUri))).toBe(true);
    }
    expect(await apply(withKiosk(true))).toContain('disabled: false → true');
    const refusedTimes = await timeUntilEveryInstance(async (fetcher) => {
      const token = await tokenRequest(fetcher, 'live-kiosk', 'live-kiosk-secret');
      return (
        refused(await authorize(fetcher, 'live-kiosk', kioskUri)) &&
        token.status === 401 &&
        token.error === 'invalid_client'
      );
    });
    expect(Math.max(...refusedTimes)).toBeLessThan(promise);

    expect(await apply(withKiosk(false))).toContain('disabled: true → false');
    const acceptedTimes = await timeUntilEveryInstance(async (fetcher) => {
      const token = await tokenRequest(fetcher, 'live-kiosk', 'live-kiosk-secret');
      // Its secret survived: it authenticates again, and only the made-up code is wrong.
      return accepted(await authorize(fetcher, 'live-kiosk', kioskUri)) && token.error === 'invalid_grant';
    });
    expect(Math.max(...acceptedTimes)).toBeLessThan(promise);
  });

  it('refuses a client removed from the file (prune) at the authorization and token endpoints within 5 s', async () => {
    const kioskUri = 'https://kiosk-2.live.example/callback';
    for (const instance of cluster.instances) {
      expect(accepted(await authorize(instance.fetch, 'live-kiosk', kioskUri))).toBe(true);
      // The client authenticates; only the code is wrong.
      expect(await tokenRequest(instance.fetch, 'live-kiosk', 'live-kiosk-secret')).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
    }
    // Without prune, leaving the client out of the file removes nothing.
    const tenant = liveTenant({ aliasDomains: ['login.live.localhost'] });
    const withoutKiosk = tenant.clients.filter((client) => client.clientId !== 'live-kiosk');
    const kept = await apply({ ...tenant, clients: withoutKiosk });
    expect(kept).toContain('No changes');

    const plan = await apply({ ...tenant, clients: withoutKiosk, prune: true });
    expect(plan).toContain(`- client live-kiosk of ${code}: remove`);
    expect(plan).toContain('1 removed');

    const times = await timeUntilEveryInstance(async (fetcher) => {
      const token = await tokenRequest(fetcher, 'live-kiosk', 'live-kiosk-secret');
      return (
        refused(await authorize(fetcher, 'live-kiosk', kioskUri)) &&
        token.status === 401 &&
        token.error === 'invalid_client'
      );
    });
    expect(Math.max(...times)).toBeLessThan(promise);
    // The tenant's other client is untouched.
    for (const instance of cluster.instances) {
      expect(accepted(await authorize(instance.fetch, 'live-pms', 'https://pms.live.example/callback'))).toBe(
        true,
      );
    }
  });

  it('refuses with the file, before writing, a prune that would remove the login client', async () => {
    files += 1;
    const file = path.join(dist, `live-${files}.yaml`);
    writeFileSync(
      file,
      stringify({
        tenants: [
          liveTenant({
            prune: true,
            clients: [
              {
                clientId: 'live-partner',
                redirectUris: ['https://partner.live.example/handoff'],
                grantTypes: [tokenExchange.grantType],
                secretEnv: 'LIVE_PMS_SECRET',
              },
            ],
          }),
        ],
      }),
    );
    const err: string[] = [];
    const exit = await runCli(['apply', '-f', file], {
      out: () => {},
      err: (line) => err.push(line),
      database: cli,
      config: cluster.t.config,
      now: () => cluster.t.clock.now(),
    });
    expect(exit).toBe(1);
    expect(err.join('\n')).toContain(
      'tenants[0].loginClientId: no client live-pms in the file, and prune would remove it',
    );
    const clients = await cli.kysely
      .selectFrom('oidc_clients')
      .select('client_id')
      .where('tenant_code', '=', code)
      .orderBy('client_id')
      .execute();
    expect(clients.map((row) => row.client_id)).toEqual(['live-pms']);
  });
});
