import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type PartnerKey, partnerLinkOf, partnerSso, signPartnerToken } from '../../test/partners.ts';
import { createUser, findUserByEmail } from '../accounts/user.repository.ts';
import { partnerIssuer, startPartnerSsoApp } from './partner-sso.test-support.ts';

/**
 * Partner sign-in (issue 8, issue 16): how a partner's subject finds its account — a link made
 * on an address both sides verified, a provisioned account, or only links made before.
 */
describe.each(engines)('partner account linking on %s', (engine) => {
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

  it('never links on an address the partner has not verified', async () => {
    for (const claims of [{ email_verified: false }, {}]) {
      const sso = await partnerSso(
        browser(),
        grandHotel(),
        'linker',
        await token('linker', 'sub-unverified', {
          email: demo.grandHotel.email,
          ...claims,
        }),
      );
      expect(sso).toMatchObject({
        status: 403,
        body: { code: 'partner.email_unverified' },
        setsSession: false,
      });
    }
    expect(await partnerLinkOf(t, 'grand-hotel', 'linker', 'sub-unverified')).toBeUndefined();
  });

  it('never links on an address Keycard has not verified, nor provisions over it', async () => {
    await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email: 'unverified@grand-hotel.test',
      type: 'staff',
      locale: 'en',
      status: 'active',
      emailVerified: false,
    });
    for (const partner of ['linker', 'provider']) {
      const sso = await partnerSso(
        browser(),
        grandHotel(),
        partner,
        await token(partner, 'sub-kc-unverified', {
          email: 'unverified@grand-hotel.test',
          email_verified: true,
        }),
      );
      expect(sso, partner).toMatchObject({ status: 403, body: { code: 'partner.account_not_linked' } });
      expect(await partnerLinkOf(t, 'grand-hotel', partner, 'sub-kc-unverified')).toBeUndefined();
    }
  });

  it('refuses an address no account has, unless the partner provisions', async () => {
    const claims = { email: 'new.guest@partner.test', email_verified: true, locale: 'de-DE' };
    const refused = await partnerSso(
      browser(),
      grandHotel(),
      'linker',
      await token('linker', 'sub-new', claims),
    );
    expect(refused).toMatchObject({ status: 403, body: { code: 'partner.account_not_linked' } });
    expect(await findUserByEmail(t.services.db, 'grand-hotel', claims.email)).toBeUndefined();

    const b = browser();
    const provisioned = await partnerSso(
      b,
      grandHotel(),
      'provider',
      await token('provider', 'sub-new', claims),
    );
    expect(provisioned.status).toBe(200);
    const user = await findUserByEmail(t.services.db, 'grand-hotel', claims.email);
    expect(user).toMatchObject({ type: 'partner', locale: 'de', password_hash: null, email_verified: 1 });
    expect(await partnerLinkOf(t, 'grand-hotel', 'provider', 'sub-new')).toMatchObject({
      user_id: user!.id,
      link_method: 'provisioned',
    });
    // The next sign-in of the subject finds its link.
    const next = await partnerSso(browser(), grandHotel(), 'provider', await token('provider', 'sub-new'));
    expect(next.status).toBe(200);
  });

  it('signs in only subjects linked before under existing-only', async () => {
    const claims = { email: demo.grandHotel.email, email_verified: true };
    const unlinked = await partnerSso(
      browser(),
      grandHotel(),
      'closed',
      await token('closed', 'sub-closed', claims),
    );
    expect(unlinked).toMatchObject({
      status: 403,
      body: { code: 'partner.account_not_linked' },
      setsSession: false,
    });
    const user = await findUserByEmail(t.services.db, 'grand-hotel', demo.grandHotel.email);
    await t.services.db
      .insertInto('partner_identities')
      .values({
        tenant_code: 'grand-hotel',
        partner_code: 'closed',
        subject: 'sub-closed',
        user_id: user!.id,
        link_method: 'operator',
        email_at_link: null,
        linked_at: t.clock.now(),
        last_sign_in_at: null,
      })
      .execute();
    const linked = await partnerSso(browser(), grandHotel(), 'closed', await token('closed', 'sub-closed'));
    expect(linked.status).toBe(200);
  });

  it('refuses a disabled account, linked or not', async () => {
    const email = 'disabled@grand-hotel.test';
    const user = await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email,
      type: 'staff',
      locale: 'en',
      status: 'active',
      emailVerified: true,
    });
    const claims = { email, email_verified: true };
    expect(
      (await partnerSso(browser(), grandHotel(), 'linker', await token('linker', 'sub-dis', claims))).status,
    ).toBe(200);
    await t.services.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    for (const [partner, sub] of [
      ['linker', 'sub-dis'],
      ['provider', 'sub-dis-new'],
    ] as const) {
      const sso = await partnerSso(browser(), grandHotel(), partner, await token(partner, sub, claims));
      expect(sso, partner).toMatchObject({
        status: 403,
        body: { code: 'partner.account_disabled' },
        setsSession: false,
      });
    }
  });
});
