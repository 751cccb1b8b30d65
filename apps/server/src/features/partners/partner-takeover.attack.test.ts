import { apiPaths, partnerAuditActions, partnerLinksResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import {
  addClients,
  exchangeClientMetadata,
  exchangeHandoff,
  generateHandoff,
  manyRequests,
  type PartnerKey,
  partnerApp,
  partnerKey,
  partnerLinkOf,
  partnerSso,
  registerPartner,
  signPartnerToken,
} from '../../test/partners.ts';
import { passwordStep, registerTotp, sessionExists, totpCode } from '../../test/sign-in-flow.ts';
import { activeUser, lastMailTo, mailsTo, tokenIn, uniqueEmail } from '../accounts/test-support.ts';
import { findUserByEmail } from '../accounts/user.repository.ts';

/**
 * Issue 16, breach 1: the pre-account takeover through a `provision` partner. A partner user
 * sends a token for someone else's address; Keycard must neither link nor create an account
 * on an address the partner does not assert as verified, and an account the mailbox owner
 * claims (a password reset) must lose every partner link its owner did not confirm — with the
 * partner sessions and hand-off codes those links carried — also when partner sign-ins race the
 * claim on two instances of one database.
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);
const newPassword = 'Harbour-light-2031';

describe.each(layouts)('partner pre-account takeover on %s, %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let key: PartnerKey;
  const via = (i: number) => cluster.instances[i % cluster.instances.length]!.fetch;
  const issuerOf = (code: string) => `https://${code}.partner.test`;

  beforeAll(async () => {
    cluster = await instancesFor(engine, manyRequests);
    origin = cluster.origin('grand-hotel');
    key = await partnerKey('takeover-key');
    const jwks = { keys: [key.publicJwk as { kty: 'EC' }] };
    await addClients(cluster, 'grand-hotel', [exchangeClientMetadata(partnerApp)]);
    await registerPartner(cluster.t, 'grand-hotel', {
      code: 'provider',
      displayName: 'Booking Provider',
      jwks,
      linking: 'provision',
    });
    await registerPartner(cluster.t, 'grand-hotel', {
      code: 'linker',
      displayName: 'Channel Linker',
      jwks,
      linking: 'link-verified-email',
    });
  });
  afterAll(() => cluster.close());

  const token = (partner: string, sub: string, claims: Record<string, unknown> = {}) =>
    signPartnerToken(key, { iss: issuerOf(partner), aud: `${origin}/oidc`, sub, ...claims });

  async function signIn(partner: string, sub: string, claims: Record<string, unknown> = {}, i = 0) {
    const browser = new Browser(via(i));
    const answer = await partnerSso(browser, origin, partner, await token(partner, sub, claims));
    return { browser, ...answer };
  }

  /** The mailbox owner resets the password from the mailed link (another instance). */
  async function claimByReset(email: string, i = 1) {
    const owner = new Browser(via(i));
    const request = await owner.fetch(`${origin}/api/user/${encodeURIComponent(email)}/reset-password`, {
      method: 'POST',
      body: {},
    });
    expect(request.status).toBe(200);
    const resetToken = tokenIn(await lastMailTo(cluster.t, email, 'account.reset'));
    return { owner, resetToken };
  }

  async function applyReset(owner: Browser, resetToken: string) {
    return owner.fetch(`${origin}/api/user`, {
      method: 'PATCH',
      body: { token: resetToken, password: newPassword },
    });
  }

  async function authxSessionsOf(userId: string) {
    return cluster.t.services.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('provider', '=', 'authx')
      .execute();
  }

  async function auditOf(subject: string) {
    const rows = await cluster.t.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', partnerAuditActions.signIn)
      .execute();
    return rows
      .map((row) => ({ ...row, after: JSON.parse(row.after ?? '{}') as Record<string, unknown> }))
      .filter((row) => row.after.subject === subject);
  }

  /** PUT (keep) or DELETE (drop) a link, as the portal's account page would (same origin). */
  function changeLink(browser: Browser, method: 'PUT' | 'DELETE', partner: string, subject: string) {
    return browser.fetch(`${origin}${apiPaths.partners.link(partner, subject)}`, {
      method,
      headers: { origin },
    });
  }

  async function linksOf(browser: Browser) {
    const response = await browser.fetch(`${origin}${apiPaths.partners.links}`);
    expect(response.status).toBe(200);
    return partnerLinksResponse.parse(await response.json());
  }

  it('refuses to create or link an account on an address the partner does not assert as verified', async () => {
    const victim = uniqueEmail('not-yet-registered');
    for (const claims of [{ email: victim, email_verified: false }, { email: victim }]) {
      const attack = await signIn('provider', 'attacker-1', claims);
      expect(attack).toMatchObject({
        status: 403,
        body: { code: 'partner.email_unverified' },
        setsSession: false,
      });
    }
    expect(await findUserByEmail(cluster.t.services.db, 'grand-hotel', victim)).toBeUndefined();
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'provider', 'attacker-1')).toBeUndefined();

    // Nor onto an account that exists, by either policy.
    const owner = uniqueEmail('registered');
    await activeUser(cluster.t, owner, 'Anchor-bay-2020');
    for (const partner of ['provider', 'linker']) {
      const attack = await signIn(partner, 'attacker-2', { email: owner, email_verified: false });
      expect(attack, partner).toMatchObject({ status: 403, body: { code: 'partner.email_unverified' } });
    }
    // Each refusal is in the audit log, with its partner, subject and result.
    const entries = await auditOf('attacker-1');
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor_kind: 'system', tenant_code: 'grand-hotel' });
      expect(entry.after).toEqual({
        partner: 'provider',
        subject: 'attacker-1',
        account: null,
        result: 'partner.email_unverified',
      });
    }
  });

  it('a provisioned account claimed by a password reset loses its partner link, sessions and codes', async () => {
    const email = uniqueEmail('claimed');
    // The partner vouches for an address its user does not own (a lax or compromised check).
    const provisioned = await signIn('provider', 'squatter', {
      email,
      email_verified: true,
      locale: 'de-DE',
    });
    expect(provisioned.status).toBe(200);
    const user = await findUserByEmail(cluster.t.services.db, 'grand-hotel', email);
    expect(user).toMatchObject({ type: 'partner', password_hash: null });
    // The squatter holds a partner session and a hand-off code not yet redeemed.
    const handoff = await generateHandoff(provisioned.browser, origin, 'provider', {
      token: provisioned.body.token as string,
    });
    expect(handoff.status).toBe(200);

    // The mailbox owner claims the account by "forgot password", on the other instance.
    const { owner, resetToken } = await claimByReset(email);
    expect((await applyReset(owner, resetToken)).status).toBe(200);

    // The link is gone, and so is all it carried.
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'provider', 'squatter')).toBeUndefined();
    expect(await sessionExists(provisioned.browser, origin)).toBe(false);
    expect(await authxSessionsOf(user!.id)).toEqual([]);
    const redeemed = await exchangeHandoff(via(0), origin, handoff.body.token as string);
    expect(redeemed.status).toBe(400);
    expect(await redeemed.json()).toMatchObject({ error: 'invalid_grant' });

    // The partner subject can no longer sign in to the account, whatever the token says.
    for (const [i, claims] of [{ email, email_verified: true }, {}].entries()) {
      const again = await signIn('provider', 'squatter', claims, i);
      expect(again, JSON.stringify(claims)).toMatchObject({
        status: 403,
        body: { code: 'partner.account_not_linked' },
        setsSession: false,
      });
    }
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'provider', 'squatter')).toBeUndefined();

    // The owner is told, in the account's language and the tenant's branding, which partner went.
    const mail = await lastMailTo(cluster.t, email, 'account.partner-links-removed');
    expect(mail.subject).toContain('Partner-Anmeldungen');
    expect(mail.text).toContain('Booking Provider');
    expect(mail.html).toContain('Booking Provider');

    // Signed in with the new password, the owner sees the removal, and no link.
    await passwordStep(owner, origin, 'grand-hotel', email, newPassword);
    const links = await linksOf(owner);
    expect(links.links).toEqual([]);
    expect(links.removed).toEqual([
      { partnerCode: 'provider', subject: 'squatter', removedAt: expect.any(Number), reason: 'claim' },
    ]);
    // Every sign-in of the subject is in the audit log: the one that got in, then the refusals.
    expect((await auditOf('squatter')).map((entry) => entry.after)).toEqual([
      { partner: 'provider', subject: 'squatter', account: user!.id, result: 'success' },
      // The refused attempt that named the address names the account it was after.
      { partner: 'provider', subject: 'squatter', account: user!.id, result: 'partner.account_not_linked' },
      { partner: 'provider', subject: 'squatter', account: null, result: 'partner.account_not_linked' },
    ]);
  });

  it('an e-mail verification by the mailbox owner is a claim too (an account provisioned before the fix)', async () => {
    const email = uniqueEmail('legacy');
    expect((await signIn('provider', 'legacy-squatter', { email, email_verified: true })).status).toBe(200);
    const user = await findUserByEmail(cluster.t.services.db, 'grand-hotel', email);
    // As Keycard used to provision it: the partner's unverified address, to be verified here.
    await cluster.t.services.db
      .updateTable('users')
      .set({ email_verified: 0, email_verification_required: 1 })
      .where('id', '=', user!.id)
      .execute();
    // The squatter's partner session asks for the verification mail; it reaches the owner…
    const squatter = await signIn('provider', 'legacy-squatter');
    const send = await squatter.browser.fetch(`${origin}${apiPaths.lifecycle.sendVerification(email)}`, {
      method: 'POST',
      body: {},
    });
    expect(send.status).toBe(200);
    const verifyToken = tokenIn(await lastMailTo(cluster.t, email, 'account.verify-email'));
    // …who opens it, on the other instance: the account is claimed.
    const verify = await new Browser(via(1)).fetch(`${origin}${apiPaths.lifecycle.verifyEmail}`, {
      method: 'PATCH',
      body: { email, token: verifyToken },
    });
    expect(verify.status).toBe(200);
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'provider', 'legacy-squatter')).toBeUndefined();
    expect(await sessionExists(squatter.browser, origin)).toBe(false);
    expect(await signIn('provider', 'legacy-squatter', { email, email_verified: true })).toMatchObject({
      status: 403,
      body: { code: 'partner.account_not_linked' },
    });
    const mail = await lastMailTo(cluster.t, email, 'account.partner-links-removed');
    expect(mail.subject).toContain('Partner sign-ins removed');
  });

  it('a claim keeps links the owner confirmed, and mails nothing when nothing goes', async () => {
    const email = uniqueEmail('confirmed-link');
    await activeUser(cluster.t, email, 'Anchor-bay-2020');
    // A link on an address verified on both sides, to an account whose owner holds a password.
    const linked = await signIn('linker', 'owner-at-linker', { email, email_verified: true });
    expect(linked.status).toBe(200);
    expect(
      (await partnerLinkOf(cluster.t, 'grand-hotel', 'linker', 'owner-at-linker'))?.owner_confirmed_at,
    ).not.toBeNull();
    const handoff = await generateHandoff(linked.browser, origin, 'linker', {
      token: linked.body.token as string,
    });
    expect(handoff.status).toBe(200);

    const { owner, resetToken } = await claimByReset(email, 0);
    expect((await applyReset(owner, resetToken)).status).toBe(200);
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'linker', 'owner-at-linker')).toBeDefined();
    expect((await mailsTo(cluster.t, email)).map((mail) => mail.template)).not.toContain(
      'account.partner-links-removed',
    );
    // A credential change still ends the partner session, and the hand-off code it made.
    expect(await sessionExists(linked.browser, origin)).toBe(false);
    const redeemed = await exchangeHandoff(via(1), origin, handoff.body.token as string);
    expect(await redeemed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn('linker', 'owner-at-linker')).status).toBe(200);
  });

  it('an MFA reset ends the partner sessions and pending hand-off codes of the account', async () => {
    const email = uniqueEmail('mfa-reset');
    await activeUser(cluster.t, email, 'Anchor-bay-2020');
    const owner = new Browser(via(0));
    await passwordStep(owner, origin, 'grand-hotel', email, 'Anchor-bay-2020');
    const { secret } = await registerTotp(owner, origin, cluster.t.clock.now());
    cluster.t.clock.advance(30_000);
    // A partner session that passed the factor too, with a code not yet redeemed.
    const partner = await signIn('linker', 'mfa-reset-sub', { email, email_verified: true }, 1);
    expect(partner.status).toBe(200);
    const verify = await partner.browser.fetch(`${origin}${apiPaths.mfa.verify}`, {
      method: 'POST',
      body: { code: await totpCode(secret, cluster.t.clock.now()), deliveryType: 'totp' },
    });
    expect(verify.status).toBe(200);
    const handoff = await generateHandoff(partner.browser, origin, 'linker', {
      token: partner.body.token as string,
    });
    expect(handoff.status).toBe(200);
    cluster.t.clock.advance(30_000);

    const reset = await owner.fetch(`${origin}${apiPaths.mfa.reset}`, {
      method: 'POST',
      body: { proof: { code: await totpCode(secret, cluster.t.clock.now()), deliveryType: 'totp' } },
    });
    expect(reset.status).toBe(200);
    expect(await sessionExists(partner.browser, origin)).toBe(false);
    const redeemed = await exchangeHandoff(via(0), origin, handoff.body.token as string);
    expect(await redeemed.json()).toMatchObject({ error: 'invalid_grant' });
    // The partner tokens of the next tests are signed on the real clock.
    cluster.t.clock.advance(-60_000);
  });

  it('the owner keeps or drops a link; a partner session cannot keep one', async () => {
    const email = uniqueEmail('keep-drop');
    await signIn('provider', 'keep-me', { email, email_verified: true });
    const user = await findUserByEmail(cluster.t.services.db, 'grand-hotel', email);
    // A partner session may not vouch for a partner link.
    const partnerSession = await signIn('provider', 'keep-me');
    const vouch = await changeLink(partnerSession.browser, 'PUT', 'provider', 'keep-me');
    expect(vouch.status).toBe(403);
    expect(await vouch.json()).toMatchObject({ code: 'partner.owner_session_required' });

    // The owner claims the account; a link made later from the other partner is then theirs.
    const { owner, resetToken } = await claimByReset(email);
    expect((await applyReset(owner, resetToken)).status).toBe(200);
    expect((await signIn('linker', 'linker-sub', { email, email_verified: true })).status).toBe(200);
    await passwordStep(owner, origin, 'grand-hotel', email, newPassword);
    expect((await linksOf(owner)).links).toEqual([
      expect.objectContaining({ partnerCode: 'linker', subject: 'linker-sub', method: 'verified-email' }),
    ]);

    // Dropped: the subject is refused, also with a verified address, and its session ends.
    const session = await signIn('linker', 'linker-sub');
    const drop = await changeLink(owner, 'DELETE', 'linker', 'linker-sub');
    expect(drop.status).toBe(200);
    expect(partnerLinksResponse.parse(await drop.json()).links).toEqual([]);
    expect(await sessionExists(session.browser, origin)).toBe(false);
    expect(await signIn('linker', 'linker-sub', { email, email_verified: true })).toMatchObject({
      status: 403,
      body: { code: 'partner.account_not_linked' },
    });
    // Allowed again by the owner: the next verified sign-in links it, confirmed.
    const allow = await changeLink(owner, 'PUT', 'linker', 'linker-sub');
    expect(allow.status).toBe(200);
    expect((await signIn('linker', 'linker-sub', { email, email_verified: true })).status).toBe(200);
    expect((await linksOf(owner)).links).toEqual([
      expect.objectContaining({ subject: 'linker-sub', confirmedAt: expect.any(Number) }),
    ]);
    const unknown = await changeLink(owner, 'DELETE', 'linker', 'nobody');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'partner.link_not_found' });
    expect(user).toBeDefined();
  });

  it('a partner address with KELVIN SIGN does not link the account with a plain k', async () => {
    const email = uniqueEmail('kiosk');
    await activeUser(cluster.t, email, 'Anchor-bay-2020');
    const lookAlike = email.replace('k', '\u212A');
    expect(lookAlike).not.toBe(email);
    const attack = await signIn('linker', 'kelvin', { email: lookAlike, email_verified: true });
    expect(attack).toMatchObject({ status: 403, setsSession: false });
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'linker', 'kelvin')).toBeUndefined();
  });

  it('20 partner sign-ins racing the claim leave no link and no partner session behind', async () => {
    const email = uniqueEmail('race');
    expect((await signIn('provider', 'racer', { email, email_verified: true })).status).toBe(200);
    const user = await findUserByEmail(cluster.t.services.db, 'grand-hotel', email);
    const { owner, resetToken } = await claimByReset(email);
    // 20 partner users sign in over and over, on both instances; the claim starts once some
    // got in, so sign-ins land before it, while it commits and after it.
    let claimed = false;
    const answers: Array<Awaited<ReturnType<typeof signIn>>> = [];
    const racers = Array.from({ length: 20 }, async (_, i) => {
      for (let round = 0; round < 12 && !claimed; round++)
        answers.push(await signIn('provider', 'racer', {}, i));
    });
    while (answers.length < 10) await new Promise((resolve) => setTimeout(resolve, 2));
    const claim = await applyReset(owner, resetToken).finally(() => {
      claimed = true;
    });
    await Promise.all(racers);
    expect(claim.status).toBe(200);
    expect(answers.length).toBeGreaterThanOrEqual(20);
    for (const answer of answers) {
      // Before the claim a sign-in succeeds (and its session is then ended); after, it is refused.
      expect([200, 403]).toContain(answer.status);
      if (answer.status === 403) expect(answer.body).toMatchObject({ code: 'partner.account_not_linked' });
    }
    expect(await partnerLinkOf(cluster.t, 'grand-hotel', 'provider', 'racer')).toBeUndefined();
    expect(await authxSessionsOf(user!.id)).toEqual([]);
    for (const answer of answers) expect(await sessionExists(answer.browser, origin)).toBe(false);
    expect((await signIn('provider', 'racer', { email, email_verified: true })).status).toBe(403);
    const refusals = await cluster.t.services.db
      .selectFrom('partner_link_refusals')
      .select(['subject', 'reason'])
      .where('user_id', '=', user!.id)
      .execute();
    expect(refusals).toEqual([{ subject: 'racer', reason: 'claim' }]);
  });
});
