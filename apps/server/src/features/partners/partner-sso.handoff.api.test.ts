import { apiPaths, partnerConfigSchema } from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../platform/shared/crypto.ts';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import {
  exchangeHandoff,
  generateHandoff,
  type PartnerKey,
  partnerApp,
  partnerConfig,
  partnerSso,
  registerPartner,
  signPartnerToken,
} from '../../test/partners.ts';
import { passwordStep } from '../../test/sign-in-flow.ts';
import { partnerIssuer, startPartnerSsoApp } from './partner-sso.test-support.ts';

/**
 * After a partner sign-in (issue 8, step 4): the hand-off code for the partner app
 * (generate-token), and the partner's help link, which says nothing about accounts.
 */
describe.each(engines)('partner hand-off and help link on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let key: PartnerKey;

  /** A partner token for `tenant`'s issuer, by the partner `code`, for `sub`. */
  function token(code: string, sub: string, claims: Record<string, unknown> = {}, tenant = 'grand-hotel') {
    return signPartnerToken(key, { iss: partnerIssuer(code), aud: `${origin(tenant)}/oidc`, sub, ...claims });
  }
  const grandHotel = () => origin('grand-hotel');
  const browser = () => new Browser();

  beforeAll(async () => {
    ({ t, origin, key } = await startPartnerSsoApp(engine));
    // The demo user's link to the subject sub-gh, made by a first sign-in on the address both
    // sides verified: the sessions below sign in through it.
    const first = await partnerSso(
      browser(),
      grandHotel(),
      'linker',
      await token('linker', 'sub-gh', { email: demo.grandHotel.email, email_verified: true }),
    );
    expect(first.status).toBe(200);
  });
  afterAll(() => t.close());

  describe('generate-token', () => {
    async function partnerSession(partner = 'linker', sub = 'sub-gh') {
      const b = browser();
      const sso = await partnerSso(b, grandHotel(), partner, await token(partner, sub));
      expect(sso.status).toBe(200);
      return { b, identityToken: sso.body.token as string };
    }

    it('needs a session, complete, of this partner, with its partner identity token', async () => {
      const none = await generateHandoff(browser(), grandHotel(), 'linker', { token: 'x'.repeat(43) });
      expect(none).toMatchObject({ status: 401, body: { code: 'session.required' } });

      const password = browser();
      await passwordStep(password, grandHotel(), 'grand-hotel', demo.grandHotel.email);
      const keycard = await generateHandoff(password, grandHotel(), 'linker', { token: 'x'.repeat(43) });
      expect(keycard).toMatchObject({ status: 403, body: { code: 'partner.session_mismatch' } });

      const { b, identityToken } = await partnerSession();
      const otherPartner = await generateHandoff(b, grandHotel(), 'closed', { token: identityToken });
      expect(otherPartner).toMatchObject({ status: 403, body: { code: 'partner.session_mismatch' } });
      const wrongToken = await generateHandoff(b, grandHotel(), 'linker', { token: `${identityToken}x` });
      expect(wrongToken).toMatchObject({ status: 403, body: { code: 'partner.session_mismatch' } });
      const unknown = await generateHandoff(b, grandHotel(), 'nobody', { token: identityToken });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'partner.unknown' } });
    });

    it('sends the code only to a redirect URI registered for the partner or the tenant', async () => {
      const { b, identityToken } = await partnerSession();
      const foreign = await generateHandoff(b, grandHotel(), 'linker', {
        token: identityToken,
        redirectUri: 'https://attacker.example/handoff',
      });
      expect(foreign).toMatchObject({ status: 400, body: { code: 'redirect.not_allowed' } });
      const tenants = await generateHandoff(b, grandHotel(), 'linker', {
        token: identityToken,
        redirectUri: 'http://localhost:3001/callback',
      });
      expect(tenants).toMatchObject({ status: 200, body: { redirectUri: 'http://localhost:3001/callback' } });
      // A code for the demo app's address is not the partner app's to redeem.
      const exchanged = await exchangeHandoff(loopbackFetch, grandHotel(), tenants.body.token as string);
      expect(exchanged.status).toBe(400);
    });

    it('issues no code when neither the partner nor the tenant names an app to send it to', async () => {
      const setDefault = async (uri: string) => {
        await t.services.db
          .updateTable('tenants')
          .set({ default_redirect_uri: uri })
          .where('code', '=', 'grand-hotel')
          .execute();
        t.services.tenants.invalidate('grand-hotel');
      };
      const setPartnerRedirects = (uris: string[]) =>
        t.services.db
          .updateTable('partners')
          .set({ redirect_uris: JSON.stringify(uris) })
          .where('tenant_code', '=', 'grand-hotel')
          .where('partner_code', '=', 'linker')
          .execute();
      const stored = await t.services.db
        .selectFrom('tenants')
        .select('default_redirect_uri')
        .where('code', '=', 'grand-hotel')
        .executeTakeFirstOrThrow();
      await setPartnerRedirects([]);
      try {
        await setDefault('');
        const { b, identityToken } = await partnerSession();
        // The portal shows its signed-in page for this refusal (authenticated-errors.ts).
        const nowhere = await generateHandoff(b, grandHotel(), 'linker', { token: identityToken });
        expect(nowhere).toMatchObject({ status: 400, body: { code: 'redirect.not_allowed' } });
        await setDefault('http://localhost:3001/');
        const toDefault = await generateHandoff(b, grandHotel(), 'linker', { token: identityToken });
        expect(toDefault).toMatchObject({ status: 200, body: { redirectUri: 'http://localhost:3001/' } });
      } finally {
        await setPartnerRedirects([partnerApp.redirectUri]);
        await setDefault(stored.default_redirect_uri);
      }
    });

    it('never sends the code to a javascript: or data: address, registered or stored before the rule', async () => {
      const bad = ['javascript:alert(document.domain)//', 'data:text/html,<script>alert(1)</script>'];
      for (const uri of bad) {
        const parsed = partnerConfigSchema.safeParse(partnerConfig({ code: 'linker', redirectUris: [uri] }));
        expect(parsed.success, uri).toBe(false);
      }
      // Written straight into the database, as before the rule: it reads as none.
      await t.services.db
        .updateTable('partners')
        .set({ redirect_uris: JSON.stringify([...bad, partnerApp.redirectUri]) })
        .where('tenant_code', '=', 'grand-hotel')
        .where('partner_code', '=', 'linker')
        .execute();
      try {
        const { b, identityToken } = await partnerSession();
        for (const uri of bad) {
          const refused = await generateHandoff(b, grandHotel(), 'linker', {
            token: identityToken,
            redirectUri: uri,
          });
          expect(refused, uri).toMatchObject({ status: 400, body: { code: 'redirect.not_allowed' } });
        }
        const fine = await generateHandoff(b, grandHotel(), 'linker', { token: identityToken });
        expect(fine).toMatchObject({ status: 200, body: { redirectUri: partnerApp.redirectUri } });
      } finally {
        await t.services.db
          .updateTable('partners')
          .set({ redirect_uris: JSON.stringify([partnerApp.redirectUri]) })
          .where('tenant_code', '=', 'grand-hotel')
          .where('partner_code', '=', 'linker')
          .execute();
      }
    });

    it('stores the code only hashed, and answers bad input with a coded 400', async () => {
      const { b, identityToken } = await partnerSession();
      const handoff = await generateHandoff(b, grandHotel(), 'linker', { token: identityToken });
      const code = handoff.body.token as string;
      expect(code.length).toBeGreaterThanOrEqual(43);
      const stored = await t.services.db
        .selectFrom('one_time_tokens')
        .select(['id', 'purpose', 'expires_at', 'created_at'])
        .where('id', '=', hashToken(code))
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ purpose: 'PARTNER_HANDOFF' });
      expect(Number(stored.expires_at) - Number(stored.created_at)).toBe(60_000);
      for (const body of [{}, { token: '' }, { token: 7 }, { token: identityToken, redirectUri: 5 }]) {
        const response = await b.fetch(`${grandHotel()}${apiPaths.partners.generateToken('linker')}`, {
          method: 'POST',
          body,
        });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(((await response.json()) as { code: string }).code).toBe('common.validation_failed');
      }
    });
  });

  describe('help link', () => {
    async function helpLink(partner: string, email: string) {
      const response = await browser().fetch(`${grandHotel()}${apiPaths.partners.helpLink(partner, email)}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }

    it('answers the same for an address with an account and one without', async () => {
      await registerPartner(t, 'grand-hotel', {
        code: 'helpful',
        jwks: { keys: [key.publicJwk as { kty: 'EC' }] },
        helpUrlTemplate: 'https://partner.example/help?user={email}&from={partnerCode}',
      });
      const known = await helpLink('helpful', demo.grandHotel.email);
      const unknown = await helpLink('helpful', 'nobody+x@grand-hotel.test');
      expect(known).toEqual({
        status: 200,
        body: {
          url: `https://partner.example/help?user=${encodeURIComponent(demo.grandHotel.email)}&from=helpful`,
        },
      });
      expect(unknown.status).toBe(200);
      expect(unknown.body.url).toBe(
        `https://partner.example/help?user=${encodeURIComponent('nobody+x@grand-hotel.test')}&from=helpful`,
      );
      // Without a template: the tenant's login help, the same for everyone.
      const fallbackKnown = await helpLink('linker', demo.grandHotel.email);
      const fallbackUnknown = await helpLink('linker', 'nobody@grand-hotel.test');
      expect(fallbackKnown).toEqual({
        status: 200,
        body: { url: 'https://help.grand-hotel.example/login-help' },
      });
      expect(fallbackUnknown).toEqual(fallbackKnown);
    });

    it('answers a coded 4xx for a bad address or an unknown partner', async () => {
      expect(await helpLink('linker', 'not-an-address')).toMatchObject({
        status: 400,
        body: { code: 'common.validation_failed' },
      });
      expect(await helpLink('nobody', demo.grandHotel.email)).toMatchObject({
        status: 404,
        body: { code: 'partner.unknown' },
      });
    });
  });
});
