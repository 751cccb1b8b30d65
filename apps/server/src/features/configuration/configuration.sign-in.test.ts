import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listeningEmptyTestApp } from '../../test/empty-app.ts';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { demoRedirectUri, startAuthorization } from '../../test/oidc.ts';
import { callbackOf, passwordStep } from '../../test/sign-in-flow.ts';
import { lastMailTo, linkIn, runCliOn } from '../accounts/test-support.ts';

/**
 * Issue 10's first "done means": a Keycard started without the demo seed gets a tenant, its
 * theme, a confidential client and an invitation from `keycard apply -f` alone; the invited
 * user activates through the mail in the outbox and signs in to the new client with
 * openid-client; dry-run and export round-trip on what apply made.
 */
const file = `
tenants:
  - code: harbour
    aliasCode: hb
    loginDomain: harbour.localhost
    defaultRedirectUri: http://localhost:3001/
    loginClientId: harbour-app
    theme:
      name: Harbour Inns
      images: { logo: /brand/harbour-logo.svg, favicon: /brand/harbour-favicon.svg }
      colours:
        primaryBackground: "#0b3954"
        primaryForeground: "#ffffff"
        secondaryBackground: "#e0f2f9"
        secondaryForeground: "#0b1f2a"
        tertiaryBackground: "#a8321b"
        tertiaryForeground: "#ffffff"
      links:
        loginHelpUrl: https://help.harbour.example/login
        contactSupportUrl: null
    clients:
      - clientId: harbour-app
        redirectUris: [${demoRedirectUri}]
        postLogoutRedirectUris: [http://localhost:3001/]
        secretEnv: HARBOUR_APP_SECRET
    invitations:
      - email: skipper@harbour.example
        type: staff
        locale: en
`;

describe.each(engines)(
  'a tenant from keycard apply alone, signed in to with openid-client, on %s',
  (engine) => {
    let t: TestApp;
    let origin: string;
    let dir: string;
    beforeAll(async () => {
      const started = await listeningEmptyTestApp(engine);
      t = started.t;
      origin = started.origin('harbour.localhost');
      dir = mkdtempSync(path.join(tmpdir(), 'keycard-apply-'));
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('creates the tenant, theme, client and invitation; the user activates and signs in', async () => {
      expect(t.config.seedDemo).toBe(false);
      expect(await t.services.tenants.all()).toEqual([]);
      const secret = 'harbour-app-secret-from-the-environment';
      vi.stubEnv('HARBOUR_APP_SECRET', secret);
      const configFile = path.join(dir, 'harbour.yaml');
      writeFileSync(configFile, file);

      const dry = await runCliOn(t, 'apply', '-f', configFile, '--dry-run');
      expect(dry.out).toContain('+ tenant harbour: create');
      expect(await t.services.tenants.all()).toEqual([]);

      const applied = await runCliOn(t, 'apply', '-f', configFile);
      expect(applied, applied.err).toMatchObject({ code: 0 });

      // The login domain answers with the tenant's theme.
      const browser = new Browser();
      const domain = await browser.fetch(`${origin}/api/login-domains/harbour.localhost`);
      expect(domain.status).toBe(200);
      expect(await domain.json()).toMatchObject({
        theme: { name: 'Harbour Inns', colours: { primaryBackground: '#0b3954' } },
        tenant: { code: 'harbour', aliasCode: 'hb', loginClientId: 'harbour-app' },
      });

      // The invitation's activation mail, on the tenant's domain.
      const email = 'skipper@harbour.example';
      const mail = await lastMailTo(t, email, 'account.activation');
      const link = linkIn(mail);
      expect(link.origin).toBe(origin);
      expect(mail.subject).toContain('Harbour Inns');
      const password = 'Harbour-lights-42';
      const activate = await browser.fetch(`${origin}/api/user/activate`, {
        method: 'POST',
        body: {
          token: link.searchParams.get('token'),
          password,
          secretQuestion: 'first-pet-name',
          secretAnswer: 'Rex',
        },
      });
      expect(activate.status, await activate.clone().text()).toBe(200);

      // The app: discovery, code + PKCE, the portal's password step, the code exchange.
      const config = await client.discovery(new URL(`${origin}/oidc`), 'harbour-app', secret, undefined, {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: loopbackFetch,
      });
      const start = await startAuthorization(config, browser);
      expect(start.location).toMatch(/^\/login\?iid=/);
      const iid = new URL(start.location, origin).searchParams.get('iid')!;
      await passwordStep(browser, origin, 'harbour', email, password, { iid });
      const callback = await callbackOf(browser, origin, start.location);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
      });
      expect(tokens.claims()).toMatchObject({ iss: `${origin}/oidc`, aud: 'harbour-app', email });

      // A wrong secret is refused: the client's secret is the one from the environment.
      const wrong = await client.discovery(
        new URL(`${origin}/oidc`),
        'harbour-app',
        'not-the-secret',
        undefined,
        {
          execute: [client.allowInsecureRequests],
          [client.customFetch]: loopbackFetch,
        },
      );
      await expect(client.refreshTokenGrant(wrong, 'any-refresh-token')).rejects.toMatchObject({
        error: 'invalid_client',
      });

      // Round trip: the export applies as a no-op, and the file itself does too.
      const exported = await runCliOn(t, 'export', '--tenant', 'harbour');
      expect(exported.out).not.toContain(secret);
      const exportFile = path.join(dir, 'exported.yaml');
      writeFileSync(exportFile, exported.out);
      expect((await runCliOn(t, 'apply', '-f', exportFile)).out).toContain('No changes');
      expect((await runCliOn(t, 'apply', '-f', configFile, '--dry-run')).out).toContain('No changes');
    });
  },
);
