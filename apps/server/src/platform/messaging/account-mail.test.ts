import { type Locale, locales, type Theme } from '@keycard/contract';
import { contrastRatio } from '@keycard/contract/contrast';
import { format, loadTexts } from '@keycard/texts';
import { describe, expect, it } from 'vitest';
import { demoTenants } from '../../surfaces/seed/demo.ts';
import { type AccountMailKind, renderAccountMail } from './templates/account-mail.ts';

const theme = demoTenants[0]!.theme;
const origin = 'https://login.grand-hotel.example';
const kinds: AccountMailKind[] = ['activation', 'reset', 'verifyEmail'];
const link = `${origin}/activate/?token=abc123&langCode=en`;

describe.each(locales)('account mails in %s', (locale: Locale) => {
  it.each(kinds)(
    'renders the %s mail: translated subject and words, themed HTML, the link in both parts',
    async (kind) => {
      const mail = await renderAccountMail({ kind, locale, theme, origin, link });
      const texts = (await loadTexts(locale)).lifecycle.mail;
      const values = { tenant: theme.name, days: 7, minutes: 60, hours: 24 };
      expect(mail.subject).toBe(format(texts[kind].subject, values));
      expect(mail.subject).toContain('Grand Hotel Group');

      expect(mail.html).toContain(`<html lang="${locale}">`);
      expect(mail.html).toContain(`<title>${mail.subject}</title>`.replace(/&/g, '&amp;'));
      expect(mail.html).toContain(`src="${origin}/brand/grand-hotel-logo.svg"`);
      expect(mail.html).toContain(`background:${theme.colours.primaryBackground}`);
      expect(mail.html).toContain(`color:${theme.colours.primaryForeground}`);
      expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      expect(mail.html).toContain(texts[kind].action);
      expect(mail.html).not.toMatch(/\{\{\w+\}\}/);

      expect(mail.text).toContain(texts[kind].heading);
      expect(mail.text).toContain(format(texts[kind].expiry, values));
      expect(mail.text.split('\n')).toContain(link);
      expect(mail.text).not.toMatch(/\{\{\w+\}\}/);
      expect(mail.text).not.toContain('<');
    },
  );
});

describe('account mail safety', () => {
  it('escapes every tenant-provided value in the HTML', async () => {
    const hostile: Theme = {
      ...theme,
      name: 'Evil <script>alert(1)</script> & "Co"',
      images: { ...theme.images, logo: '"><img src=x onerror=alert(1)>' },
    };
    const mail = await renderAccountMail({
      kind: 'reset',
      locale: 'en',
      theme: hostile,
      origin,
      link: `${origin}/reset-password/update?token=a"b&email=x`,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('token=a"b');
    expect(mail.html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
  });

  it('keeps an absolute logo URL as it is', async () => {
    const mail = await renderAccountMail({
      kind: 'activation',
      locale: 'en',
      theme: { ...theme, images: { ...theme.images, logo: 'https://cdn.example/logo.png' } },
      origin,
      link,
    });
    expect(mail.html).toContain('src="https://cdn.example/logo.png"');
  });

  it('names the tenant in place of a logo it does not have, legibly on its colour', async () => {
    const mail = await renderAccountMail({
      kind: 'activation',
      locale: 'en',
      theme: {
        ...theme,
        name: 'Lakeside <Lodges>',
        images: { ...theme.images, logo: '' },
        colours: { ...theme.colours, primaryBackground: '#0b5d3b', primaryForeground: '#1a4d33' },
      },
      origin,
      link,
    });
    expect(mail.html).not.toMatch(/<img /);
    const band = /<p style="margin:0;font-size:20px;[^"]*color:(#[0-9a-f]{6});">([^<]*)<\/p>/.exec(mail.html);
    expect(band?.[2]).toBe('Lakeside &lt;Lodges&gt;');
    // The foreground the theme gives does not read on its primary colour: a passing one does.
    expect(contrastRatio(band?.[1] ?? '#0b5d3b', '#0b5d3b')).toBeGreaterThanOrEqual(4.5);
  });
});
