import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { createRegistrationLink, inviteUser } from './invitation.service.ts';
import {
  activeUser,
  lastMailTo,
  mailsTo,
  setTenantSettings,
  tenantOf,
  tokenIn,
  uniqueEmail,
} from './test-support.ts';

/**
 * A reCAPTCHA-v3-compatible verification endpoint on a local port: it records what it is
 * asked and answers by the token: 'good-<ACTION>' passes for that action, 'bot' scores low,
 * anything else fails.
 */
async function startSiteVerify() {
  const requests: Array<Record<string, string>> = [];
  let down = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ ...form, method: req.method ?? '', contentType: req.headers['content-type'] ?? '' });
      if (down) {
        res.writeHead(503).end();
        return;
      }
      const token = form.response ?? '';
      const answer = token.startsWith('good-')
        ? { success: true, score: 0.9, action: token.slice('good-'.length) }
        : token === 'bot'
          ? { success: true, score: 0.1, action: 'SIGNUP' }
          : { success: false, 'error-codes': ['invalid-input-response'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    setDown: (value: boolean) => {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const draft = { password: 'Captcha-proof-77', secretQuestion: 'town-where-born', secretAnswer: 'Porto' };

describe.each(engines)('captcha on %s', (engine) => {
  let t: TestApp;
  let verifier: Awaited<ReturnType<typeof startSiteVerify>>;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    verifier = await startSiteVerify();
  });
  afterAll(async () => {
    await t.close();
    await verifier.close();
  });
  beforeEach(async () => {
    verifier.requests.length = 0;
    verifier.setDown(false);
    await setTenantSettings(t, {
      captcha: {
        siteKey: 'site-key-123',
        secret: 'captcha-secret',
        verifyUrl: verifier.url,
        scriptUrl: `${verifier.origin}/api.js`,
      } as never,
    });
  });

  async function activationToken() {
    const email = uniqueEmail('captcha');
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    return tokenIn(await lastMailTo(t, email));
  }

  it('is off by default: no site key for the portal, no verification', async () => {
    await setTenantSettings(t, {});
    const config = await call(t.app, 'GET', '/api/captcha');
    expect(config.json()).toEqual({ siteKey: null, scriptUrl: null });
    const token = await activationToken();
    expect((await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } })).statusCode).toBe(
      200,
    );
    expect(verifier.requests).toHaveLength(0);
  });

  it('gives the portal the site key and script, never the secret', async () => {
    const response = await call(t.app, 'GET', '/api/captcha');
    expect(response.json()).toEqual({ siteKey: 'site-key-123', scriptUrl: `${verifier.origin}/api.js` });
    expect(response.body).not.toContain('captcha-secret');
  });

  it("widens the portal pages' CSP for the captcha origin, only for that tenant", async () => {
    const page = await call(t.app, 'GET', '/activate/?token=x');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`script-src 'self' ${verifier.origin}`));
    expect(csp).toContain(`frame-src ${verifier.origin}`);
    expect(csp).toContain("frame-ancestors 'none'");
    const other = await call(t.app, 'GET', '/activate/?token=x', { host: 'seaside.localhost:3000' });
    expect(String(other.headers['content-security-policy'])).not.toContain(verifier.origin);
  });

  it('verifies a SIGNUP token with the secret as a form post, and accepts a good one', async () => {
    const token = await activationToken();
    const response = await call(t.app, 'POST', '/api/user/activate', {
      body: { token, ...draft, recaptchaToken: 'good-SIGNUP' },
    });
    expect(response.statusCode).toBe(200);
    expect(verifier.requests).toHaveLength(1);
    expect(verifier.requests[0]).toMatchObject({
      method: 'POST',
      contentType: 'application/x-www-form-urlencoded',
      secret: 'captcha-secret',
      response: 'good-SIGNUP',
    });
  });

  it.each([
    ['no token', undefined],
    ['a failed token', 'forged'],
    ['a low score', 'bot'],
    ['a token minted for another action', 'good-PASSWORD_RESET'],
  ])(
    'refuses activation with %s (400 captcha.failed), leaving the link usable',
    async (_name, recaptchaToken) => {
      const token = await activationToken();
      const response = await call(t.app, 'POST', '/api/user/activate', {
        body: { token, ...draft, ...(recaptchaToken ? { recaptchaToken } : {}) },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('captcha.failed');
      expect((await call(t.app, 'POST', '/api/user/validate-token', { body: { token } })).statusCode).toBe(
        200,
      );
    },
  );

  it('fails closed when the verifier is down', async () => {
    verifier.setDown(true);
    const token = await activationToken();
    const response = await call(t.app, 'POST', '/api/user/activate', {
      body: { token, ...draft, recaptchaToken: 'good-SIGNUP' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('captcha.failed');
  });

  it('checks PASSWORD_RESET tokens on reset requests and on the reset itself', async () => {
    const email = uniqueEmail('reset-captcha');
    await activeUser(t, email, 'Before-captcha-1');
    const path = `/api/user/${encodeURIComponent(email)}/reset-password`;
    const refused = await call(t.app, 'POST', path, { body: { recaptchaToken: 'good-SIGNUP' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('captcha.failed');
    expect(await mailsTo(t, email)).toHaveLength(0);

    const accepted = await call(t.app, 'POST', path, { body: { recaptchaToken: 'good-PASSWORD_RESET' } });
    expect(accepted.json()).toEqual({ state: 'reset' });
    const token = tokenIn(await lastMailTo(t, email));

    const noToken = await call(t.app, 'PATCH', '/api/user', { body: { token, password: 'After-captcha-2' } });
    expect(noToken.json().code).toBe('captcha.failed');
    const ok = await call(t.app, 'PATCH', '/api/user', {
      body: { token, password: 'After-captcha-2', recaptchaToken: 'good-PASSWORD_RESET' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('checks SIGNUP tokens on activation resends', async () => {
    const email = uniqueEmail('resend-captcha');
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    const path = `/api/user/${encodeURIComponent(email)}/resend-activation`;
    const refused = await call(t.app, 'POST', path, { body: { recaptchaToken: 'good-PASSWORD_RESET' } });
    expect(refused.json().code).toBe('captcha.failed');
    expect(await mailsTo(t, email)).toHaveLength(1);
    const ok = await call(t.app, 'POST', path, { body: { recaptchaToken: 'good-SIGNUP' } });
    expect(ok.statusCode).toBe(200);
    expect(await mailsTo(t, email)).toHaveLength(2);
  });

  it('checks SIGNUP tokens on registration', async () => {
    const { link } = await createRegistrationLink(
      t.services,
      await tenantOf(t),
      { email: uniqueEmail('reg-captcha'), type: 'staff', locale: 'en' },
      t.clock.now(),
    );
    const token = new URL(link).searchParams.get('token')!;
    const refused = await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } });
    expect(refused.json().code).toBe('captcha.failed');
    const ok = await call(t.app, 'POST', '/api/user/register', {
      body: { token, ...draft, recaptchaToken: 'good-SIGNUP' },
    });
    expect(ok.statusCode).toBe(200);
  });
});
