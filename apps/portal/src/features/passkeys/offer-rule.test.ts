import { describe, expect, it } from 'vitest';
import { mayOffer, type OfferFacts } from './offer-rule.ts';

const now = Date.UTC(2026, 10, 27);
const day = 24 * 60 * 60 * 1000;
const facts: OfferFacts = {
  mode: 'offered',
  passwordSignIn: true,
  webAuthn: true,
  provider: 'keycard',
  shownAt: null,
  now,
};

describe('the passkey offer', () => {
  it('comes after a password sign-in where the tenant offers passkeys and the browser can make one', () => {
    expect(mayOffer(facts)).toBe(true);
    expect(mayOffer({ ...facts, mode: 'off' })).toBe(false);
    expect(mayOffer({ ...facts, mode: undefined })).toBe(false);
    expect(mayOffer({ ...facts, webAuthn: false })).toBe(false);
    expect(mayOffer({ ...facts, passwordSignIn: false })).toBe(false);
    expect(mayOffer({ ...facts, provider: 'passkey' })).toBe(false);
    expect(mayOffer({ ...facts, provider: 'authx' })).toBe(false);
  });

  it("is shown once, then not for 30 days in this browser ('offered')", () => {
    expect(mayOffer({ ...facts, shownAt: now - day })).toBe(false);
    expect(mayOffer({ ...facts, shownAt: now - 29 * day })).toBe(false);
    expect(mayOffer({ ...facts, shownAt: now - 30 * day })).toBe(true);
  });

  it("comes after every password sign-in when the tenant prefers passkeys ('preferred')", () => {
    expect(mayOffer({ ...facts, mode: 'preferred', shownAt: now - day })).toBe(true);
    expect(mayOffer({ ...facts, mode: 'preferred', webAuthn: false })).toBe(false);
    expect(mayOffer({ ...facts, mode: 'preferred', passwordSignIn: false })).toBe(false);
  });
});
