import type { AdminUser } from '@keycard/contract/admin';
import { describe, expect, it } from 'vitest';
import { actionsOf } from './user-actions.tsx';

const account = (overrides: Partial<AdminUser>): AdminUser => ({
  id: '00000000-0000-4000-8000-000000000001',
  email: 'guest@example.com',
  type: 'staff',
  locale: 'en',
  status: 'active',
  emailVerified: true,
  createdAt: 0,
  lockedUntil: null,
  mfaEnrolled: false,
  hasSecretQuestion: true,
  ...overrides,
});

describe('the user actions that fit an account (issue 19)', () => {
  it('offers a plain active account Disable and End sessions: no Unlock, no Reset MFA', () => {
    expect(actionsOf(account({}))).toEqual(['disable', 'endSessions']);
  });

  it('offers Unlock only while locked out, and Reset MFA only with a factor or passkey', () => {
    expect(actionsOf(account({ lockedUntil: 1_800_000_000_000, mfaEnrolled: true }))).toEqual([
      'disable',
      'unlock',
      'resetMfa',
      'endSessions',
    ]);
  });

  it('offers a pending account a new activation mail, never sessions it cannot have', () => {
    expect(actionsOf(account({ status: 'pending', emailVerified: false }))).toEqual([
      'resendActivation',
      'disable',
    ]);
  });

  it('offers a disabled account Enable, and Unlock if its lockout is still running', () => {
    expect(actionsOf(account({ status: 'disabled' }))).toEqual(['enable']);
    expect(actionsOf(account({ status: 'disabled', lockedUntil: 1_800_000_000_000 }))).toEqual([
      'enable',
      'unlock',
    ]);
  });
});
