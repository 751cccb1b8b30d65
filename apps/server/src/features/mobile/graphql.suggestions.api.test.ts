import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, type TestApp } from '../../test/helper.ts';
import { summit } from '../mfa/mfa.test-support.ts';

const path = '/api/mobile-beef/graphql';

/** Documents whose mistakes graphql-js answers with a name of the schema ("Did you mean …?"). */
const near = [
  { query: '{ masterDevic { id } }', names: ['masterDevice'] },
  { query: 'mutation { setupMasterDevice(replac: true) { setupId } }', names: ['replace'] },
  { query: 'query ($r: Boolen) { masterDevice { id } }', names: ['Boolean'] },
  { query: '{ masterDevice { nme } }', names: ['name'] },
];

async function answersOf(t: TestApp) {
  const answers = [];
  for (const { query, names } of near) {
    const response = await call(t.app, 'POST', path, { host: summit.host, body: { query } });
    expect(response.statusCode, query).toBe(400);
    const error = response.json().errors[0] as { message: string; extensions: { code: string } };
    expect(error.extensions.code, query).toBe('graphql.invalid_query');
    answers.push({ query, names, message: error.message });
  }
  return answers;
}

/** Issue 16, also seen: production GraphQL errors suggested field names. */
describe('GraphQL error messages and the schema’s names', () => {
  let production: TestApp;
  let development: TestApp;
  beforeAll(async () => {
    // Production runs on PostgreSQL only (config.ts).
    production = await buildTestApp('postgres', {
      env: { NODE_ENV: 'production', PUBLIC_SCHEME: 'http', PUBLIC_PORT: '3000' },
    });
    development = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await production?.close();
    await development?.close();
  });

  it('suggests no field, argument or type name in production', async () => {
    for (const { query, names, message } of await answersOf(production)) {
      expect(message, query).not.toMatch(/did you mean/i);
      for (const name of names) expect(message, query).not.toContain(`"${name}"`);
      // What was wrong is still said.
      expect(message.length, query).toBeGreaterThan(10);
    }
  });

  it('keeps the suggestions outside production, where they help whoever writes a query', async () => {
    for (const { query, names, message } of await answersOf(development)) {
      expect(message, query).toMatch(/Did you mean/);
      for (const name of names) expect(message, query).toContain(`"${name}"`);
    }
  });
});
