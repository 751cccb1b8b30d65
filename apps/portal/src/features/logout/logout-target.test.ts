import { storageKeys } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { logoutTarget } from './use-logout.ts';

const storage = (values: Record<string, string>) => ({ get: (key: string) => values[key] ?? null });

describe('logoutTarget', () => {
  it("carries the app's redirect on while its request is pending and none was asked for", () => {
    const stored = storage({
      [storageKeys.iid]: 'abc',
      [storageKeys.redirectUri]: 'https://app.example/cb?x=1',
    });
    expect(logoutTarget('/login?loggedOut=true', undefined, stored)).toBe(
      `/login?loggedOut=true&redirectUri=${encodeURIComponent('https://app.example/cb?x=1')}`,
    );
  });

  it('goes where the server said when a redirect was asked for or no request is pending', () => {
    const stored = storage({ [storageKeys.iid]: 'abc', [storageKeys.redirectUri]: 'https://app.example/cb' });
    expect(logoutTarget('https://app.example/bye', 'https://app.example/bye', stored)).toBe(
      'https://app.example/bye',
    );
    expect(
      logoutTarget('/login?loggedOut=true', undefined, storage({ [storageKeys.redirectUri]: 'x' })),
    ).toBe('/login?loggedOut=true');
  });
});
