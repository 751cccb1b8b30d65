import { paths } from '@keycard/contract/paths';
import { describe, expect, it } from 'vitest';
import { sameOriginOr } from './use-email-verification.ts';

const origin = 'https://grand-hotel.test';

describe('the homepage after a verified address', () => {
  it('follows an address on the portal itself', () => {
    expect(sameOriginOr('/authenticated', origin)).toBe(`${origin}/authenticated`);
    expect(sameOriginOr(`${origin}/mfa?x=1`, origin)).toBe(`${origin}/mfa?x=1`);
  });

  it('never leaves the origin: another host, a javascript: or protocol-relative address fall back', () => {
    expect(sameOriginOr('https://evil.test/phish', origin)).toBe(paths.authenticated);
    expect(sameOriginOr('//evil.test/phish', origin)).toBe(paths.authenticated);
    expect(sameOriginOr('javascript:alert(1)', origin)).toBe(paths.authenticated);
    expect(sameOriginOr('http://grand-hotel.test/authenticated', origin)).toBe(paths.authenticated);
  });
});
