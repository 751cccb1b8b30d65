import { type Locale, locales } from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import { describe, expect, it } from 'vitest';
import { demoTenants } from '../../../surfaces/seed/demo.ts';
import { renderPartnerLinksRemovedMail } from './account-mail.ts';

/** The mail that tells an account's owner which partner links a claim removed (issue 16). */
const theme = demoTenants[0]!.theme;
const origin = 'https://login.grand-hotel.example';
const link = `${origin}/login?langCode=en`;

describe.each(locales)('the partner-links-removed mail in %s', (locale: Locale) => {
  it('is translated and themed, and names every removed partner', async () => {
    const mail = await renderPartnerLinksRemovedMail({
      locale,
      theme,
      origin,
      link,
      partners: ['Booking Provider', 'Channel Linker'],
    });
    const texts = (await loadTexts(locale)).lifecycle.mail.partnerLinksRemoved;
    expect(mail.subject).toBe(format(texts.subject, { tenant: theme.name }));
    if (locale !== 'en') {
      const english = (await loadTexts('en')).lifecycle.mail.partnerLinksRemoved;
      expect(mail.subject).not.toBe(format(english.subject, { tenant: theme.name }));
    }
    expect(mail.html).toContain(`<html lang="${locale}">`);
    expect(mail.html).toContain(`background:${theme.colours.primaryBackground}`);
    expect(mail.html).toContain(`href="${link}"`);
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('Booking Provider');
      expect(part).toContain('Channel Linker');
      expect(part).not.toMatch(/\{\{\w+\}\}/);
    }
    expect(mail.text).toContain(texts.heading);
    expect(mail.text.split('\n')).toContain(link);
  });
});

describe('the partner-links-removed mail', () => {
  it("escapes a partner's display name in the HTML", async () => {
    const mail = await renderPartnerLinksRemovedMail({
      locale: 'en',
      theme,
      origin,
      link,
      partners: ['Evil <script>alert(1)</script> & "Co"'],
    });
    expect(mail.html).not.toContain('<script>alert(1)</script>');
    expect(mail.html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
  });
});
