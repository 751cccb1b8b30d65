import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'examples/*/src/**/*.test.ts',
            'apps/console/src/**/*.test.ts',
            'apps/portal/src/**/*.test.ts',
            'apps/portal/src/**/*.test.tsx',
            'apps/console/src/**/*.test.tsx',
            'packages/*/src/**/*.test.tsx',
          ],
          // Tests that measure time under load of their own run alone, after the rest.
          exclude: ['**/node_modules/**', '**/*.load.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'load',
          include: ['apps/server/src/**/*.load.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // A browser under CI load can take seconds to settle a screen; a second of polling
          // (the default) made waits for what does happen fail spuriously.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
