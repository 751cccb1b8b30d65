import { type Locale, locales } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { demoTenants } from '../../../surfaces/seed/demo.ts';
import type { SecurityMailTexts } from './security-mail/en.ts';
import { renderSecurityMail, securityMailEvents, securityMailTexts } from './security-mail.ts';

/** The security mails (issue 18): every event in every language, themed, escaped, both links. */
const theme = demoTenants[0]!.theme;
const origin = 'https://login.grand-hotel.example';
const resetLink = `${origin}/reset-password/?email=guest%40example.test&langCode=en`;
const accountLink = `${origin}/account?langCode=en`;
const firefox = { name: 'Firefox', os: 'Windows', mobile: false };

/** Every text of a language by its key path, for comparing languages. */
function flatten(texts: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each(locales)('the security mails in %s', (locale: Locale) => {
  const texts: SecurityMailTexts = securityMailTexts[locale];

  it('are translated: every text, with the placeholders of the English one', () => {
    const english = flatten(securityMailTexts.en);
    const own = flatten(texts);
    expect([...own.keys()]).toEqual([...english.keys()]);
    let same = 0;
    for (const [key, text] of own) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''));
      if (text === english.get(key)) same += 1;
    }
    // Brand-like words ("Browser") may match; sentences may not.
    if (locale !== 'en') expect(same).toBeLessThanOrEqual(2);
  });

  it.each(securityMailEvents)('%s is themed, says when and where, and carries both links', (event) => {
    const mail = renderSecurityMail({
      event,
      locale,
      theme,
      origin,
      resetLink,
      accountLink,
      at: Date.UTC(2026, 10, 27, 14, 5),
      browser: firefox,
      ip: '203.0.113.7',
      name: 'Work laptop',
      factor: 'phone',
      partner: 'Booking Provider',
    });
    expect(mail.html).toContain(`<html lang="${locale}">`);
    expect(mail.html).toContain(`background:${theme.colours.primaryBackground}`);
    expect(mail.html).toContain(`href="${resetLink.replaceAll('&', '&amp;')}"`);
    expect(mail.html).toContain(`href="${accountLink}"`);
    expect(mail.text.split('\n')).toContain(resetLink);
    expect(mail.text.split('\n')).toContain(accountLink);
    for (const part of [mail.subject, mail.html, mail.text]) expect(part).not.toMatch(/\{\{\w+\}\}/);
    expect(mail.text).toContain('203.0.113.7');
    expect(mail.text).toContain(
      texts.browserOn.replace('{{browser}}', 'Firefox').replace('{{os}}', 'Windows'),
    );
    expect(mail.text).toContain(texts.notYouAction);
    if (event === 'partner-linked') expect(mail.subject).toContain('Booking Provider');
    if (event.startsWith('passkey')) expect(mail.text).toContain('Work laptop');
    if (event.startsWith('factor')) expect(mail.text).toContain(texts.factors.phone);
  });
});

describe('the security mails', () => {
  it("escape a passkey's or a partner's name in the HTML", () => {
    const mail = renderSecurityMail({
      event: 'partner-linked',
      locale: 'en',
      theme,
      origin,
      resetLink,
      accountLink,
      at: Date.now(),
      browser: null,
      ip: null,
      partner: 'Evil <script>alert(1)</script> & "Co"',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    // What is not known is said so, not left blank.
    expect(mail.text).toContain('Browser: unknown');
    expect(mail.text).toContain('Address: unknown');
  });
});
