import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type PartnerKey, partnerSso, signPartnerToken } from '../../test/partners.ts';
import { mailsTo, uniqueEmail } from '../accounts/test-support.ts';
import { createUser } from '../accounts/user.repository.ts';
import { findPartner } from '../partners/partner.repository.ts';
import { partnerIssuer, startPartnerSsoApp } from '../partners/partner-sso.test-support.ts';

/**
 * A partner linked to an account that existed (issue 18): its owner gets a security mail in
 * their language and sees the link and the partner's sign-in in the recent activity; an account
 * the partner has just made has nobody to tell.
 */
describe.each(engines)('partner links in the account page on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let key: PartnerKey;
  beforeAll(async () => {
    ({ t, origin, key } = await startPartnerSsoApp(engine));
  });
  afterAll(() => t.close());

  function token(code: string, sub: string, claims: Record<string, unknown>) {
    return signPartnerToken(key, {
      iss: partnerIssuer(code),
      aud: `${origin('grand-hotel')}/oidc`,
      sub,
      ...claims,
    });
  }

  it("tells an existing account's owner that a partner was linked, once", async () => {
    const email = uniqueEmail('linked');
    await createUser(
      t.services.db,
      {
        tenantCode: 'grand-hotel',
        email,
        type: 'staff',
        locale: 'fr',
        status: 'active',
        password: 'Owner-password-1',
        emailVerified: true,
      },
      t.clock.now(),
    );
    const browser = new Browser();
    const claims = { email, email_verified: true };
    const first = await partnerSso(
      browser,
      origin('grand-hotel'),
      'linker',
      await token('linker', `sub-${email}`, claims),
    );
    expect(first.status).toBe(200);
    const again = await partnerSso(
      browser,
      origin('grand-hotel'),
      'linker',
      await token('linker', `sub-${email}`, claims),
    );
    expect(again.status).toBe(200);

    const partner = await findPartner(t.services.db, 'grand-hotel', 'linker');
    const mails = (await mailsTo(t, email)).filter((m) => m.template === 'security.partner-linked');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`${partner?.displayName} a été associé à votre compte Grand Hotel Group`);
    expect(mails[0]?.html).toContain('lang="fr"');

    const activity = await browser.fetch(`${origin('grand-hotel')}/api/account/activity`);
    expect(activity.status).toBe(200);
    const { items } = (await activity.json()) as { items: Array<{ kind: string; detail: object }> };
    expect(items.map((item) => [item.kind, item.detail])).toEqual([
      ['sign-in', { method: 'partner' }],
      ['sign-in', { method: 'partner' }],
      ['partner-linked', { name: partner?.displayName }],
    ]);
  });

  it('mails nobody for an account the partner has just made', async () => {
    const email = uniqueEmail('provisioned', 'partner.test');
    const made = await partnerSso(
      new Browser(),
      origin('grand-hotel'),
      'provider',
      await token('provider', `sub-${email}`, { email, email_verified: true }),
    );
    expect(made.status).toBe(200);
    expect(await mailsTo(t, email)).toEqual([]);
  });
});
