import { errorCodes, passkeyErrors } from '@keycard/contract/errors';
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
    if (!('to' in route)) throw new Error('not a route');
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

  it("asks for a passkey when the app's request needs one (acr_values phr), never a password", () => {
    expect(
      routeForHandOffError(refused(passkeyErrors.stepUpRequired), { email: 'a@b.co', iid: 'abc' }),
    ).toEqual({
      stepUp: 'abc',
    });
    // Without the app's request there is nothing to step up for.
    expect(
      routeForHandOffError(refused(passkeyErrors.stepUpRequired), { email: 'a@b.co', iid: null }),
    ).toEqual({
      to: paths.error,
    });
  });

  it('lands on the signed-in page when nothing asked and there is nowhere to go, else the error page', () => {
    const nowhere = refused(errorCodes.redirectNotAllowed);
    expect(routeForHandOffError(nowhere, { email: 'a@b.co', iid: null, redirectUri: null })).toEqual({
      to: paths.signedIn,
    });
    expect(routeForHandOffError(nowhere, { email: 'a@b.co', iid: null })).toEqual({ to: paths.signedIn });
    // A refused redirect the person came with, or an app's request: said as the error it is.
    expect(
      routeForHandOffError(nowhere, { email: 'a@b.co', iid: null, redirectUri: 'https://evil.example/' }),
    ).toEqual({ to: paths.error });
    expect(routeForHandOffError(nowhere, { email: 'a@b.co', iid: 'abc' })).toEqual({ to: paths.error });
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
