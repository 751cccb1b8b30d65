import { paths } from '@keycard/contract/paths';
import { userStates } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { mfaResetPurpose } from './mfa-flow.ts';
import { routeForState } from './route-for-state.ts';

const query = (text = '') => new URLSearchParams(text);

describe('routeForState', () => {
  it("offers the MFA reminder only to the portal's own and partner sign-ins (applyMfa)", () => {
    expect(routeForState('MFA_REGISTRATION_RECOMMENDED', query('applyMfa=true'))).toBe(paths.mfa);
    expect(routeForState('MFA_REGISTRATION_RECOMMENDED', query())).toBe(paths.authenticated);
  });

  it('always asks for a required MFA registration or verification', () => {
    expect(routeForState('MFA_REGISTRATION_REQUIRED', query())).toBe(paths.mfa);
    expect(routeForState('MFA_VERIFICATION_REQUIRED', query())).toBe(paths.mfa);
  });

  it('goes on when signed in, or to the MFA reset when that is what was asked for', () => {
    expect(routeForState('AUTHENTICATED', query())).toBe(paths.authenticated);
    expect(routeForState('AUTHENTICATED', query(`purpose=${mfaResetPurpose}`))).toBe(paths.mfaReset);
    expect(routeForState('AUTHENTICATED', query('purpose=other'))).toBe(paths.authenticated);
  });

  it('sends an expired password to its page', () => {
    expect(routeForState('PASSWORD_EXPIRED', query('applyMfa=true'))).toBe(paths.passwordExpired);
  });

  it('has a screen for every state, and the unknown-error page for anything else', () => {
    for (const state of userStates)
      expect(routeForState(state, query('applyMfa=true')), state).not.toBe(paths.error);
    expect(routeForState('SOMETHING_NEW' as never, query())).toBe(paths.error);
  });
});
