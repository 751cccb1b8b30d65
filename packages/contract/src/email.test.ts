import { describe, expect, it } from 'vitest';
import { canonicalEmail, isValidEmail } from './rules.ts';
import { emailSchema } from './validation.ts';

// Each of these would, under Unicode lower-casing, case folding or NFKC, become the address of
// another account (issue 16, item 4): the canonical function refuses them instead.
const lookAlikes: [string, string][] = [
  ['KELVIN SIGN (lower-cases to ASCII k)', 'mar\u212Aus@example.com'],
  ['LONG S (upper-cases to ASCII S)', 'ro\u017Fe@example.com'],
  ['Turkish dotted capital I (lower-cases to two characters)', '\u0130van@example.com'],
  ['Turkish dotless i (upper-cases to ASCII I)', '\u0131van@example.com'],
  ['fullwidth letters (NFKC to ASCII)', '\uFF41lice@example.com'],
  ['fullwidth letters in the domain', 'alice@\uFF45xample.com'],
  ['a combining accent (composes with its letter)', 'jose\u0301@example.com'],
  ['the ligature ff (NFKC to two letters)', 'je\uFB00@example.com'],
  ['sharp s (case-folds to ss)', 'stra\u00DFe@example.com'],
  ['final sigma (case-folds to sigma)', '\u03B1\u03C2@example.gr'],
  ['MICRO SIGN (NFKC to Greek mu)', '\u00B5@example.com'],
  ['a non-ASCII capital (lower-cases to another address)', 'Jos\u00C9@example.com'],
  ['a zero-width joiner', 'ali\u200Dce@example.com'],
  ['a right-to-left override', 'ali\u202Ece@example.com'],
  ['a control character', 'ali\u0000ce@example.com'],
  ['mathematical bold letters', '\u{1D41A}lice@example.com'],
];

describe('the canonical e-mail address', () => {
  it('lower-cases plain ASCII letters and trims, changing nothing else', () => {
    expect(canonicalEmail('  Alice.Smith+Tag@Example.COM ')).toBe('alice.smith+tag@example.com');
    expect(canonicalEmail('MARKUS@EXAMPLE.COM')).toBe('markus@example.com');
    expect(emailSchema.parse(' Bob@Grand-Hotel.TEST')).toBe('bob@grand-hotel.test');
  });

  it('keeps a non-ASCII address that no folding or normalisation changes', () => {
    expect(canonicalEmail('jos\u00E9@example.com')).toBe('jos\u00E9@example.com');
    expect(canonicalEmail('Jos\u00E9@B\u00FCcher.DE')).toBe('jos\u00E9@b\u00FCcher.de');
    expect(canonicalEmail('\u03B1\u03C3@example.gr')).toBe('\u03B1\u03C3@example.gr');
  });

  it.each(lookAlikes)('refuses %s', (_name, address) => {
    expect(canonicalEmail(address)).toBeUndefined();
    expect(isValidEmail(address)).toBe(false);
    expect(emailSchema.safeParse(address).success).toBe(false);
  });

  it('never answers an address whose plain lower-casing would differ from its own', () => {
    for (const [, address] of lookAlikes) {
      const folded = address.toLowerCase().normalize('NFKC');
      expect(canonicalEmail(address)).not.toBe(folded);
    }
  });

  it('keeps the shape rules: one @, a dotted domain, no spaces, at most 254 characters', () => {
    const malformed = ['alice', 'alice@example', 'a b@example.com', 'a@b@example.com', '@example.com'];
    // A mailer reads `,` `;` `<>` as address-list syntax: one account must not mail two boxes.
    const listSyntax = ['a,eve@example.com', 'a;eve@example.com', '<eve@example.com>', '"a"@example.com'];
    for (const address of [...malformed, ...listSyntax, 'alice@exa_mple.com']) {
      expect(canonicalEmail(address)).toBeUndefined();
    }
    expect(canonicalEmail(`${'a'.repeat(64)}@${'b'.repeat(185)}.com`)).toHaveLength(254);
    expect(canonicalEmail(`${'a'.repeat(64)}@${'b'.repeat(186)}.com`)).toBeUndefined();
  });

  it('reads an address with surrounding spaces as typed as invalid, so a form shows it', () => {
    expect(isValidEmail(' alice@example.com')).toBe(false);
    expect(isValidEmail('Alice@example.com')).toBe(true);
  });
});
