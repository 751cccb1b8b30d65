import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmailText, TextWithEmail } from './email-text.tsx';

const markup = (email: string) => renderToStaticMarkup(<EmailText email={email} />);

describe('EmailText', () => {
  it('offers a break after "@" and after each dot', () => {
    expect(markup('guest@grand.hotel')).toBe('<span class="kc-email">guest@<wbr/>grand.<wbr/>hotel</span>');
  });

  it('keeps every hyphen with its neighbours, so a line never ends or starts at it', () => {
    expect(markup('anna-lena@a-b-c.example')).toBe(
      '<span class="kc-email">ann<span class="kc-nobreak">a-l</span>ena@<wbr/><span class="kc-nobreak">a-b-c</span>.<wbr/>example</span>',
    );
  });

  it('adds no characters: the text is the address', () => {
    for (const email of ['x-@-y.z', 'very.long-name-with-parts@sub-domain.example-company.co.uk', 'a@b']) {
      expect(markup(email).replace(/<[^>]+>/g, '')).toBe(email);
    }
  });
});

describe('TextWithEmail', () => {
  it('draws the address in a sentence as EmailText and leaves the rest as it is', () => {
    expect(
      renderToStaticMarkup(<TextWithEmail text="Logging in as a-b@c.d, welcome" email="a-b@c.d" />),
    ).toBe(
      'Logging in as <span class="kc-email"><span class="kc-nobreak">a-b</span>@<wbr/>c.<wbr/>d</span>, welcome',
    );
    expect(renderToStaticMarkup(<TextWithEmail text="No address" email="" />)).toBe('No address');
  });
});
