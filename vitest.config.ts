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
          ],
          environment: 'node',
          // One graphql for the server and graphql-ws (see the e2e project below).
          server: { deps: { inline: ['graphql-ws'] } },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          // graphql ships CommonJS (main) and ESM (module): Vite would give the server's own
          // imports the ESM copy while Node loads graphql-ws with the CommonJS one, and graphql
          // refuses a schema from "another realm". Inlined, graphql-ws shares the server's copy.
          server: { deps: { inline: ['graphql-ws'] } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
