import { describe, expect, it } from 'vitest';
import { checkPhoneNumber, maskPhone } from './phone-number.ts';

describe('phone number checks (SPEC §5: country code, then number)', () => {
  it.each([
    ['+44', '07911 123456', 'sms', '+447911123456'],
    ['44', '7911123456', 'sms', '+447911123456'],
    ['0049', '0151 23456789', 'sms', '+4915123456789'],
    ['+1', '(202) 555-0123', 'sms', '+12025550123'],
    ['+66', '081 234 5678', 'voice', '+66812345678'],
    ['+62', '0812-3456-7890', 'sms', '+6281234567890'],
    ['+49', '030 1234567', 'voice', '+49301234567'],
    ['', '+44 7911 123456', 'sms', '+447911123456'],
    ['+33', '0049 151 23456789', 'sms', '+4915123456789'],
  ] as const)('accepts %s %s for %s as %s', (countryCode, number, channel, e164) => {
    expect(checkPhoneNumber(countryCode, number, channel)).toMatchObject({ ok: true, e164 });
  });

  it.each([
    ['+999', '0151 23456789', 'sms', 'country_code'],
    ['', '0151 23456789', 'sms', 'country_code'],
    ['+4', '0151 23456789', 'sms', 'country_code'],
    ['+49', '12', 'sms', 'invalid'],
    ['+49', 'not a number', 'voice', 'invalid'],
    ['+44', '0900 123 4567', 'voice', 'invalid'],
    ['+1', '900 555 0100', 'sms', 'invalid'],
    ['+44', '07911 123456 ext. 12', 'voice', 'invalid'],
    ['+49', '030 1234567', 'sms', 'not_mobile'],
  ] as const)('refuses %s %s for %s: %s', (countryCode, number, channel, problem) => {
    expect(checkPhoneNumber(countryCode, number, channel)).toEqual({ ok: false, problem });
  });

  it('masks all but the country code and the last two digits', () => {
    expect(maskPhone('+4915123456789')).toBe('+49 •••••••••89');
    expect(maskPhone('+447911123456')).toBe('+44 ••••••••56');
  });
});
