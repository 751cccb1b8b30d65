import { describe, expect, it } from 'vitest';
import { adminApi } from './admin.ts';
import {
  type AdminOperation,
  adminOperations,
  adminRoutePattern,
  adminUrl,
  successStatus,
} from './admin-paths.ts';

const operations: AdminOperation[] = Object.values(adminOperations);

describe('adminUrl', () => {
  it('puts each path parameter in its place, encoded as one segment', () => {
    expect(adminUrl(adminOperations.getTenant, { params: { code: 'lakeside' } })).toBe(
      '/admin/api/v1/tenants/lakeside',
    );
    expect(
      adminUrl(adminOperations.rotateClientSecret, { params: { code: 'lake side', clientId: 'a/b?c#d' } }),
    ).toBe('/admin/api/v1/tenants/lake%20side/clients/a%2Fb%3Fc%23d/secret');
    expect(adminUrl(adminOperations.retireSigningKey, { params: { code: 'x', kid: '../me' } })).toBe(
      '/admin/api/v1/tenants/x/signing-keys/..%2Fme',
    );
  });

  it('adds the query, leaving out what is undefined or empty', () => {
    expect(
      adminUrl(adminOperations.searchAudit, {
        query: { tenant: 'lakeside', action: '', actorId: undefined, from: 1700000000000, limit: 50 },
      }),
    ).toBe('/admin/api/v1/audit?tenant=lakeside&from=1700000000000&limit=50');
    expect(
      adminUrl(adminOperations.searchUsers, { params: { code: 'x' }, query: { email: 'a+b@c&d' } }),
    ).toBe('/admin/api/v1/tenants/x/users?email=a%2Bb%40c%26d');
    expect(adminUrl(adminOperations.searchAudit, { query: {} })).toBe('/admin/api/v1/audit');
    expect(adminUrl(adminOperations.listTenants)).toBe('/admin/api/v1/tenants');
  });

  it('throws rather than call another address when a path parameter is missing or empty', () => {
    // @ts-expect-error: the type asks for clientId too
    expect(() => adminUrl(adminOperations.enableClient, { params: { code: 'x' } })).toThrow(/clientId/);
    expect(() => adminUrl(adminOperations.getTenant, { params: { code: '' } })).toThrow(/code/);
  });
});

describe('adminOperations', () => {
  it('has every operation under the admin base, once per method and path', () => {
    const seen = new Set<string>();
    for (const operation of operations) {
      expect(operation.path.startsWith(`${adminApi.base}/`), operation.id).toBe(true);
      const key = `${operation.method} ${operation.path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
    expect(operations.length).toBe(45);
  });

  it("names each path parameter in the operation's params schema, and nothing else", () => {
    for (const operation of operations) {
      const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const inSchema = Object.keys(operation.params?.shape ?? {}).sort();
      expect(inSchema, operation.id).toEqual(inPath);
    }
  });

  it('answers success with one 2xx schema; an upload takes no JSON body', () => {
    for (const operation of operations) {
      const statuses = Object.keys(operation.responses).map(Number);
      expect(statuses, operation.id).toHaveLength(1);
      expect(successStatus(operation), operation.id).toBeGreaterThanOrEqual(200);
      expect(successStatus(operation), operation.id).toBeLessThan(300);
      if (operation.upload) expect(operation.body, operation.id).toBeUndefined();
      if (operation.method === 'GET') expect(operation.body, operation.id).toBeUndefined();
    }
    expect(successStatus(adminOperations.createTenant)).toBe(201);
    expect(adminOperations.getTenant.id).toBe('getTenant');
  });

  it('gives the server its route pattern', () => {
    expect(adminRoutePattern(adminOperations.retireSigningKey)).toBe(
      '/admin/api/v1/tenants/:code/signing-keys/:kid',
    );
  });
});
