import { errorCodes } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { isReauthentication, reauthenticationPath } from '../../lib/reauthentication.ts';
import { routeForHandOffError } from './authenticated-errors.ts';

const refused = (code: string) => new ApiRequestError('answer', { code });

describe('hand-off errors', () => {
  it("asks an app's fresh sign-in for the password again, for the session's account", () => {
    const route = routeForHandOffError(refused(errorCodes.reauthenticationRequired), {
      email: 'ana@example.com',
      iid: 'abc',
    });
    expect(route).toEqual({ to: reauthenticationPath('abc'), state: { email: 'ana@example.com' } });
    const query = new URLSearchParams(route.to.split('?')[1]);
    expect(route.to.startsWith(paths.loginPassword)).toBe(true);
    expect(query.get('iid')).toBe('abc');
    expect(isReauthentication(query)).toBe(true);
  });

  it('cannot ask again without the pending request or the address: the unknown-error page', () => {
    expect(
      routeForHandOffError(refused(errorCodes.reauthenticationRequired), { email: null, iid: 'abc' }),
    ).toEqual({
      to: paths.error,
    });
    expect(
      routeForHandOffError(refused(errorCodes.reauthenticationRequired), { email: 'a@b.co', iid: null }),
    ).toEqual({ to: paths.error });
  });

  it('starts again when the session ended, and sends anything else to the unknown-error page', () => {
    const facts = { email: 'a@b.co', iid: 'abc' };
    expect(routeForHandOffError(refused(errorCodes.sessionRequired), facts)).toEqual({ to: paths.root });
    expect(routeForHandOffError(refused(errorCodes.sessionIncomplete), facts)).toEqual({ to: paths.error });
    expect(routeForHandOffError(new ApiRequestError('network'), facts)).toEqual({ to: paths.error });
    expect(routeForHandOffError(new Error('partner identity token missing'), facts)).toEqual({
      to: paths.error,
    });
  });
});

describe('reauthentication marker', () => {
  it('is read only from its own parameter with the value true', () => {
    expect(isReauthentication(new URLSearchParams('reauth=true'))).toBe(true);
    expect(isReauthentication(new URLSearchParams('reauth=1'))).toBe(false);
    expect(isReauthentication(new URLSearchParams('iid=abc'))).toBe(false);
  });
});
