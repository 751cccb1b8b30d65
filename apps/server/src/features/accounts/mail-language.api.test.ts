import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { inviteUser } from './invitation.service.ts';
import { activeUser, lastMailTo, linkIn, tenantOf, uniqueEmail } from './test-support.ts';

/**
 * Issue 19, item 14: a mail asked for from the portal is in the language the page was in
 * (its langCode), with its link, rather than in the account's stored language.
 */
describe.each(engines)('the language of a requested mail, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  let ip = 0;
  const ask = (path: string, body: Record<string, unknown>) =>
    call(t.app, 'POST', path, { body, headers: { 'x-forwarded-for': `10.44.0.${++ip}` } });
  const resetPath = (email: string) => `/api/user/${encodeURIComponent(email)}/reset-password`;
  const resendPath = (email: string) => `/api/user/${encodeURIComponent(email)}/resend-activation`;

  it('writes a reset mail in the language asked in, over the account’s, and its link opens in it', async () => {
    const email = uniqueEmail('lang-reset');
    await activeUser(t, email, 'Anchor-bay-2020', { locale: 'en' });
    expect((await ask(resetPath(email), {})).statusCode).toBe(200);
    const english = await lastMailTo(t, email, 'account.reset');
    expect(linkIn(english).searchParams.get('langCode')).toBe('en');

    expect((await ask(resetPath(email), { langCode: 'de' })).statusCode).toBe(200);
    const german = await lastMailTo(t, email, 'account.reset');
    expect(german.id).not.toBe(english.id);
    expect(linkIn(german).searchParams.get('langCode')).toBe('de');
    expect(german.subject).not.toBe(english.subject);
    expect(german.subject).toMatch(/Passwort/);

    expect((await ask(resetPath(email), { langCode: 'th' })).statusCode).toBe(200);
    const thai = await lastMailTo(t, email, 'account.reset');
    expect(linkIn(thai).searchParams.get('langCode')).toBe('th');
    expect(thai.subject).toMatch(/[\u0E00-\u0E7F]/);
  });

  it('writes a new activation mail in the language asked in', async () => {
    const email = uniqueEmail('lang-activate');
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    expect((await ask(resendPath(email), { langCode: 'fr' })).statusCode).toBe(200);
    const french = await lastMailTo(t, email, 'account.activation');
    expect(linkIn(french).searchParams.get('langCode')).toBe('fr');
    // A pending account asking for a reset gets its activation mail, in the language asked in too.
    expect((await ask(resetPath(email), { langCode: 'it' })).json()).toEqual({ state: 'activate' });
    expect(linkIn(await lastMailTo(t, email, 'account.activation')).searchParams.get('langCode')).toBe('it');
  });

  it('writes a verification mail in the language asked in', async () => {
    const email = uniqueEmail('lang-verify');
    await activeUser(t, email, 'Anchor-bay-2020', { emailVerificationRequired: true, locale: 'en' });
    const { cookie } = await signIn(t.app, { ...demo.grandHotel, email }, 'Anchor-bay-2020');
    const path = `/api/user/${encodeURIComponent(email)}/send-verification`;
    expect((await call(t.app, 'POST', path, { cookie, body: { langCode: 'pt' } })).statusCode).toBe(200);
    const mail = await lastMailTo(t, email, 'account.verify-email');
    expect(linkIn(mail).searchParams.get('langCode')).toBe('pt');
    // Without one, the account's language, as before.
    t.clock.advance(1000);
    expect((await call(t.app, 'POST', path, { cookie })).statusCode).toBe(200);
    expect(linkIn(await lastMailTo(t, email, 'account.verify-email')).searchParams.get('langCode')).toBe(
      'en',
    );
  });

  it('refuses a language it does not speak', async () => {
    const answer = await ask(resetPath(uniqueEmail('lang-odd')), { langCode: 'xx' });
    expect(answer.statusCode).toBe(400);
  });
});
