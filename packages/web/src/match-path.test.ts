import { describe, expect, it } from 'vitest';
import { generatePath, matchPath, matchRoutes, type PathRoute } from './match-path.ts';

describe('matchPath', () => {
  it('matches a static path exactly, and nothing longer or shorter', () => {
    expect(matchPath('/login/password', '/login/password')).toEqual({});
    expect(matchPath('/login/password', '/login')).toBeNull();
    expect(matchPath('/login', '/login/password')).toBeNull();
    expect(matchPath('/login', '/logout')).toBeNull();
  });

  it('matches the root only at the root', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/', '')).toEqual({});
    expect(matchPath('/', '/login')).toBeNull();
  });

  it('is case-sensitive, as the paths object spells every address once', () => {
    expect(matchPath('/login', '/Login')).toBeNull();
  });

  it('reads a trailing slash, on either side, as the same address', () => {
    expect(matchPath('/activate/', '/activate')).toEqual({});
    expect(matchPath('/activate', '/activate/')).toEqual({});
    expect(matchPath('/console/', '/console')).toEqual({});
    expect(matchPath('/reset-password/sent', '/reset-password/sent/')).toEqual({});
  });

  it('gives each :name the segment in its place', () => {
    expect(matchPath('/partners/:partnerCode/sso/:token', '/partners/acme/sso/t0k3n')).toEqual({
      partnerCode: 'acme',
      token: 't0k3n',
    });
    expect(matchPath('/preview/:screen', '/preview')).toBeNull();
    expect(matchPath('/preview/:screen', '/preview/login/extra')).toBeNull();
    expect(matchPath('/partners/:partnerCode/sso/:token', '/partners/acme/sign/t0k3n')).toBeNull();
  });

  it('leaves an optional :name? out of the params when its segment is absent', () => {
    const pattern = '/console/tenants/:code/:section?';
    expect(matchPath(pattern, '/console/tenants/acme/theme')).toEqual({ code: 'acme', section: 'theme' });
    const without = matchPath(pattern, '/console/tenants/acme');
    expect(without).toEqual({ code: 'acme' });
    expect(without && 'section' in without).toBe(false);
    expect(matchPath(pattern, '/console/tenants')).toBeNull();
    expect(matchPath(pattern, '/console/tenants/acme/theme/more')).toBeNull();
  });

  it('takes several optional segments in order', () => {
    const pattern = '/oidc/:endpoint/:step?/:action?';
    expect(matchPath(pattern, '/oidc/auth')).toEqual({ endpoint: 'auth' });
    expect(matchPath(pattern, '/oidc/session/end')).toEqual({ endpoint: 'session', step: 'end' });
    expect(matchPath(pattern, '/oidc/session/end/confirm')).toEqual({
      endpoint: 'session',
      step: 'end',
      action: 'confirm',
    });
  });

  it('matches any address with the * catch-all', () => {
    expect(matchPath('*', '/')).toEqual({});
    expect(matchPath('*', '/no/such/page/')).toEqual({});
  });

  it('decodes params, including an escaped slash, without splitting on it', () => {
    expect(matchPath('/console/tenants/:code', '/console/tenants/caf%C3%A9')).toEqual({ code: 'café' });
    expect(matchPath('/console/tenants/:code', '/console/tenants/a%2Fb')).toEqual({ code: 'a/b' });
    expect(matchPath('/preview/:screen', '/preview/a%20b')).toEqual({ screen: 'a b' });
  });

  it('compares static segments as written in the address, not decoded', () => {
    expect(matchPath('/login', '/log%69n')).toBeNull();
  });

  it('matches no route for a malformed escape rather than throwing', () => {
    expect(() => matchPath('/preview/:screen', '/preview/%E0%A4%A')).not.toThrow();
    expect(matchPath('/preview/:screen', '/preview/%E0%A4%A')).toBeNull();
  });
});

describe('generatePath', () => {
  it('fills each :name with its encoded param', () => {
    expect(generatePath('/partners/:partnerCode/sso/:token', { partnerCode: 'acme', token: 'a/b c' })).toBe(
      '/partners/acme/sso/a%2Fb%20c',
    );
    expect(generatePath('/preview/:screen', { screen: 'login' })).toBe('/preview/login');
  });

  it('drops an optional segment whose param is missing', () => {
    expect(generatePath('/partners/:partnerCode/sso/:token?', { partnerCode: 'acme' })).toBe(
      '/partners/acme/sso',
    );
    expect(generatePath('/console/tenants/:code/:section?', { code: 'acme', section: 'keys' })).toBe(
      '/console/tenants/acme/keys',
    );
  });

  it('keeps static paths, and their trailing slash, as they are', () => {
    expect(generatePath('/activate/', {})).toBe('/activate/');
    expect(generatePath('/', {})).toBe('/');
  });

  it('gives back params that matchPath reads as they were', () => {
    const pattern = '/console/tenants/:code/:section?';
    const params = { code: 'ça/va?', section: '100%' };
    expect(matchPath(pattern, generatePath(pattern, params))).toEqual(params);
  });
});

interface TestRoute extends PathRoute<TestRoute> {
  name: string;
}

describe('matchRoutes', () => {
  const route = (name: string, path?: string, children?: TestRoute[]): TestRoute =>
    children ? { name, path, children } : { name, path };
  const names = (match: { branch: TestRoute[] } | null) => match?.branch.map((r) => r.name) ?? null;

  it('takes the first route in table order when several match', () => {
    const routes = [route('param', '/mfa/:step'), route('static', '/mfa/reset'), route('all', '*')];
    expect(names(matchRoutes(routes, '/mfa/reset'))).toEqual(['param']);
    expect(matchRoutes(routes, '/mfa/reset')?.params).toEqual({ step: 'reset' });

    const staticFirst = [route('static', '/mfa/reset'), route('param', '/mfa/:step'), route('all', '*')];
    expect(names(matchRoutes(staticFirst, '/mfa/reset'))).toEqual(['static']);
    expect(names(matchRoutes(staticFirst, '/mfa/choose'))).toEqual(['param']);
  });

  it('falls through to the catch-all only when nothing before it matches', () => {
    const routes = [route('login', '/login'), route('not-found', '*'), route('after', '/after')];
    expect(names(matchRoutes(routes, '/login/'))).toEqual(['login']);
    expect(names(matchRoutes(routes, '/nowhere'))).toEqual(['not-found']);
    expect(names(matchRoutes(routes, '/after'))).toEqual(['not-found']);
  });

  it('returns the branch from the layout to the leaf, with the leaf’s params', () => {
    const routes = [
      route('preview', '/preview/:screen'),
      route('layout', undefined, [route('tenant', '/console/tenants/:code/:section?'), route('all', '*')]),
    ];
    const match = matchRoutes(routes, '/console/tenants/acme');
    expect(names(match)).toEqual(['layout', 'tenant']);
    expect(match?.params).toEqual({ code: 'acme' });
    expect(names(matchRoutes(routes, '/preview/login'))).toEqual(['preview']);
    expect(names(matchRoutes(routes, '/else'))).toEqual(['layout', 'all']);
  });

  it('goes on past a layout none of whose children match', () => {
    const routes = [route('layout', undefined, [route('login', '/login')]), route('logout', '/logout')];
    expect(names(matchRoutes(routes, '/logout'))).toEqual(['logout']);
  });

  it('reads a layout through its children only, not its own path', () => {
    const routes = [route('layout', '/console', [route('audit', '/console/audit')])];
    expect(names(matchRoutes(routes, '/console/audit'))).toEqual(['layout', 'audit']);
    expect(matchRoutes(routes, '/console')).toBeNull();
  });

  it('nests layouts', () => {
    const routes = [route('outer', undefined, [route('inner', undefined, [route('leaf', '/a/:b')])])];
    const match = matchRoutes(routes, '/a/x');
    expect(names(match)).toEqual(['outer', 'inner', 'leaf']);
    expect(match?.params).toEqual({ b: 'x' });
  });

  it('matches nothing when no route has the address, or the table is empty', () => {
    expect(matchRoutes([route('login', '/login'), route('pathless')], '/logout')).toBeNull();
    expect(matchRoutes([], '/')).toBeNull();
  });
});
