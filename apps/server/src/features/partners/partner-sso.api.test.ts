import { apiPaths, partnerAuditActions, type SessionResponse } from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import {
  exchangeHandoff,
  generateHandoff,
  type PartnerKey,
  partnerApp,
  partnerLinkOf,
  partnerSso,
  signPartnerToken,
} from '../../test/partners.ts';
import { passwordStep, registerTotp } from '../../test/sign-in-flow.ts';
import { createUser, findUserByEmail } from '../accounts/user.repository.ts';
import { removeUserFactors } from '../mfa/mfa.service.ts';
import { partnerIssuer, startPartnerSsoApp } from './partner-sso.test-support.ts';

/**
 * Partner single sign-on over real HTTP (issue 8): a partner token in, an authx session, the
 * tenant's MFA where it applies, a hand-off code out, redeemed by the partner app at /oidc/token.
 * Account linking is in partner-sso.linking.api.test.ts; generate-token and the help link in
 * partner-sso.handoff.api.test.ts.
 */
describe.each(engines)('partner sign-in on %s', (engine) => {
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
  });
  afterAll(() => t.close());

  async function session(browser: Browser, tenant = 'grand-hotel') {
    return (await (await browser.fetch(`${origin(tenant)}${apiPaths.session}`)).json()) as Extract<
      SessionResponse,
      { exists: true }
    >;
  }

  async function idTokenClaims(tenant: string, idToken: string) {
    const jwks = (await (await browser().fetch(`${origin(tenant)}/oidc/jwks`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
      issuer: `${origin(tenant)}/oidc`,
      audience: partnerApp.id,
    });
    return payload;
  }

  it('signs a linked user in without MFA where the tenant asks none, and hands a code to the app', async () => {
    const b = browser();
    const sso = await partnerSso(
      b,
      grandHotel(),
      'linker',
      await token('linker', 'sub-gh', {
        email: demo.grandHotel.email,
        email_verified: true,
      }),
    );
    expect(sso).toMatchObject({ status: 200, body: { tenantCode: 'grand-hotel' }, setsSession: true });
    const identityToken = sso.body.token as string;
    const current = await session(b);
    expect(current).toMatchObject({
      exists: true,
      provider: 'authx',
      partnerCode: 'linker',
      identity: { email: demo.grandHotel.email, state: 'AUTHENTICATED', passwordExpiryInDays: null },
    });
    const link = await partnerLinkOf(t, 'grand-hotel', 'linker', 'sub-gh');
    expect(link).toMatchObject({ link_method: 'verified-email', email_at_link: demo.grandHotel.email });

    const handoff = await generateHandoff(b, grandHotel(), 'linker', { token: identityToken });
    expect(handoff).toMatchObject({
      status: 200,
      body: { tenantCode: 'grand-hotel', redirectUri: partnerApp.redirectUri, token: expect.any(String) },
    });
    const exchanged = await exchangeHandoff(loopbackFetch, grandHotel(), handoff.body.token as string);
    expect(exchanged.status).toBe(200);
    const { id_token } = (await exchanged.json()) as { id_token: string };
    const user = await findUserByEmail(t.services.db, 'grand-hotel', demo.grandHotel.email);
    expect(await idTokenClaims('grand-hotel', id_token)).toMatchObject({
      sub: user!.id,
      email: demo.grandHotel.email,
      email_verified: true,
      amr: ['fed'],
      partner_code: 'linker',
    });
  });

  it('asks for MFA first on a tenant that requires it, and the ID token says MFA was passed', async () => {
    const b = browser();
    const summit = origin('summit');
    const sso = await partnerSso(
      b,
      summit,
      'linker',
      await token(
        'linker',
        'sub-summit',
        {
          email: 'demo@summit.test',
          email_verified: true,
        },
        'summit',
      ),
    );
    expect(sso.status).toBe(200);
    const identityToken = sso.body.token as string;
    expect((await session(b, 'summit')).identity?.state).toBe('MFA_REGISTRATION_REQUIRED');
    const early = await generateHandoff(b, summit, 'linker', { token: identityToken });
    expect(early).toMatchObject({ status: 403, body: { code: 'session.incomplete' } });

    await registerTotp(b, summit, t.clock.now());
    expect((await session(b, 'summit')).identity?.state).toBe('AUTHENTICATED');
    const handoff = await generateHandoff(b, summit, 'linker', { token: identityToken });
    expect(handoff.status).toBe(200);
    const exchanged = await exchangeHandoff(loopbackFetch, summit, handoff.body.token as string);
    const { id_token } = (await exchanged.json()) as { id_token: string };
    expect((await idTokenClaims('summit', id_token)).amr).toEqual(['fed', 'mfa', 'otp']);

    // The user trusts this device: the next partner sign-in from it passes MFA (SPEC §9).
    const trusted = await b.fetch(`${summit}${apiPaths.mfa.userDeviceTokens}`, { method: 'POST', body: {} });
    expect(trusted.status).toBe(200);
    const { userDeviceToken } = (await trusted.json()) as { userDeviceToken: string };
    const next = browser();
    const again = await next.fetch(`${summit}${apiPaths.partners.sso('linker')}`, {
      method: 'POST',
      body: { token: await token('linker', 'sub-summit', {}, 'summit'), userDeviceToken },
    });
    expect(again.status).toBe(200);
    expect((await session(next, 'summit')).identity?.state).toBe('AUTHENTICATED');
    const untrusted = browser();
    await partnerSso(untrusted, summit, 'linker', await token('linker', 'sub-summit', {}, 'summit'));
    expect((await session(untrusted, 'summit')).identity?.state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('lets a skipMfa partner past the tenant policy, but an enrolled user still verifies', async () => {
    const summit = origin('summit');
    await createUser(t.services.db, {
      tenantCode: 'summit',
      email: 'fresh@summit.test',
      type: 'staff',
      locale: 'en',
      status: 'active',
      emailVerified: true,
    });
    const fresh = browser();
    const unenrolled = await partnerSso(
      fresh,
      summit,
      'trusted',
      await token(
        'trusted',
        'sub-fresh',
        {
          email: 'fresh@summit.test',
          email_verified: true,
        },
        'summit',
      ),
    );
    expect(unenrolled.status).toBe(200);
    expect((await session(fresh, 'summit')).identity).toMatchObject({
      state: 'AUTHENTICATED',
      mfaRequiredByRemainingInDays: null,
    });
    expect(
      (await generateHandoff(fresh, summit, 'trusted', { token: unenrolled.body.token as string })).status,
    ).toBe(200);

    // demo@summit.test enrolled an authenticator app in the test before.
    const enrolled = browser();
    const sso = await partnerSso(
      enrolled,
      summit,
      'trusted',
      await token(
        'trusted',
        'sub-enrolled',
        {
          email: 'demo@summit.test',
          email_verified: true,
        },
        'summit',
      ),
    );
    expect(sso.status).toBe(200);
    expect((await session(enrolled, 'summit')).identity?.state).toBe('MFA_VERIFICATION_REQUIRED');
    expect(
      (await generateHandoff(enrolled, summit, 'trusted', { token: sso.body.token as string })).body.code,
    ).toBe('session.incomplete');
  });

  it('never lets skipMfa past an account that used a factor within the trusted-device period', async () => {
    const summit = origin('summit');
    const email = 'factor-removed@summit.test';
    const user = await createUser(t.services.db, {
      tenantCode: 'summit',
      email,
      type: 'staff',
      locale: 'en',
      status: 'active',
      emailVerified: true,
    });
    // The account signs in with a factor (through the policy-bound partner)…
    const first = browser();
    await partnerSso(
      first,
      summit,
      'linker',
      await token('linker', 'sub-had-factor', { email, email_verified: true }, 'summit'),
    );
    await registerTotp(first, summit, t.clock.now());
    expect((await session(first, 'summit')).identity?.state).toBe('AUTHENTICATED');
    // …and then loses it (an operator's MFA reset): no factor is enrolled any more.
    await t.services.db
      .transaction()
      .execute((trx) => removeUserFactors(trx, { tenantCode: 'summit', userId: user.id }, t.clock.now()));
    const claims = { email, email_verified: true };
    const skipped = browser();
    const sso = await partnerSso(
      skipped,
      summit,
      'trusted',
      await token('trusted', 'sub-skip', claims, 'summit'),
    );
    expect(sso.status).toBe(200);
    expect((await session(skipped, 'summit')).identity?.state).toBe('MFA_REGISTRATION_REQUIRED');
    expect(
      (await generateHandoff(skipped, summit, 'trusted', { token: sso.body.token as string })).body.code,
    ).toBe('session.incomplete');

    // Past the tenant's trusted-device period, skipMfa applies again.
    const days = (await t.services.tenants.byCode('summit'))!.settings.mfa.trustedDeviceDays;
    const later = (days + 1) * 86_400_000;
    t.clock.advance(later);
    try {
      const nowSeconds = Math.floor(t.clock.now() / 1000);
      const late = browser();
      const again = await partnerSso(
        late,
        summit,
        'trusted',
        await signPartnerToken(
          key,
          { iss: partnerIssuer('trusted'), aud: `${summit}/oidc`, sub: 'sub-skip' },
          { nowSeconds },
        ),
      );
      expect(again.status).toBe(200);
      expect((await session(late, 'summit')).identity?.state).toBe('AUTHENTICATED');
    } finally {
      t.clock.advance(-later);
    }
  });

  it('writes an audit entry for every partner sign-in: success and each refusal', async () => {
    const audited = async (subject: string | null, result: string) => {
      const rows = await t.services.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', partnerAuditActions.signIn)
        .where('tenant_code', '=', 'grand-hotel')
        .execute();
      return rows
        .map((row) => ({ ...row, after: JSON.parse(row.after ?? '{}') as Record<string, unknown> }))
        .filter((row) => row.after.subject === subject && row.after.result === result);
    };
    const demoUser = await findUserByEmail(t.services.db, 'grand-hotel', demo.grandHotel.email);
    const claims = { email: demo.grandHotel.email, email_verified: true };

    const once = await token('linker', 'sub-audit', claims);
    expect((await partnerSso(browser(), grandHotel(), 'linker', once)).status).toBe(200);
    expect((await partnerSso(browser(), grandHotel(), 'linker', once)).status).toBe(409);
    expect((await partnerSso(browser(), grandHotel(), 'linker', `${once.slice(0, -4)}AAAA`)).status).toBe(
      401,
    );
    const notLinked = await token('closed', 'sub-audit-closed', claims);
    expect((await partnerSso(browser(), grandHotel(), 'closed', notLinked)).status).toBe(403);
    const unverified = await token('provider', 'sub-audit-unverified', { email: 'nobody@partner.test' });
    expect((await partnerSso(browser(), grandHotel(), 'provider', unverified)).status).toBe(403);

    expect(await audited('sub-audit', 'success')).toEqual([
      expect.objectContaining({
        actor_kind: 'system',
        target_kind: 'user',
        target_id: demoUser!.id,
        after: { partner: 'linker', subject: 'sub-audit', account: demoUser!.id, result: 'success' },
      }),
    ]);
    expect(await audited('sub-audit', 'partner.token_replayed')).toHaveLength(1);
    // A token whose signature fails names no subject: its claims are the forger's.
    expect((await audited(null, 'partner.token_invalid')).length).toBeGreaterThanOrEqual(1);
    expect(await audited('sub-audit-closed', 'partner.account_not_linked')).toEqual([
      expect.objectContaining({ target_kind: 'partner', target_id: 'closed' }),
    ]);
    expect(await audited('sub-audit-unverified', 'partner.email_unverified')).toHaveLength(1);
  });

  it('replaces the session the browser held (session fixation)', async () => {
    const b = browser();
    await passwordStep(b, grandHotel(), 'grand-hotel', demo.grandHotel.email);
    const before = b.cookies.get('AUTH_X_TOKEN')!;
    const sso = await partnerSso(b, grandHotel(), 'linker', await token('linker', 'sub-gh'));
    expect(sso.status).toBe(200);
    expect(b.cookies.get('AUTH_X_TOKEN')).not.toBe(before);
    const old = new Browser(undefined, new Map([['AUTH_X_TOKEN', before]]));
    expect((await session(old)).exists).toBe(false);
    expect(await session(b)).toMatchObject({ exists: true, provider: 'authx' });
  });

  it('opens one session for a token raced by 20 requests on one instance', async () => {
    const raced = await token('linker', 'sub-gh');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => partnerSso(browser(), grandHotel(), 'linker', raced)),
    );
    expect(answers.filter((a) => a.status === 200 && a.setsSession)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && !a.setsSession)).toHaveLength(19);
  });

  it('refuses a partner token used twice', async () => {
    const once = await token('linker', 'sub-gh');
    expect((await partnerSso(browser(), grandHotel(), 'linker', once)).status).toBe(200);
    const again = await partnerSso(browser(), grandHotel(), 'linker', once);
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'partner.token_replayed' },
      setsSession: false,
    });
  });

  it('answers bad input to the sign-in with a coded 4xx and no session', async () => {
    for (const body of [{}, { token: '' }, { token: 5 }, { token: 'x'.repeat(9000) }]) {
      const response = await browser().fetch(`${grandHotel()}${apiPaths.partners.sso('linker')}`, {
        method: 'POST',
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    // Invariant 5: another site cannot sign a browser in (login CSRF).
    const cross = await loopbackFetch(`${grandHotel()}${apiPaths.partners.sso('linker')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body: JSON.stringify({ token: await token('linker', 'sub-gh') }),
    });
    expect(cross.status).toBe(403);
    expect(cross.headers.getSetCookie()).toEqual([]);
  });
});
