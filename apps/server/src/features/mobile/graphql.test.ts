import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkDocument, formatError, loadMobileSchema, maxCost } from '../../surfaces/mobile/graphql.ts';
import { attachResolvers, mobileResolvers } from '../../surfaces/mobile/resolvers.ts';
import { memoryEvents } from './events.ts';
import { documents } from './mobile.test-support.ts';

const schema = loadMobileSchema();
const codeOf = (query: string, production = false) => {
  const checked = checkDocument(schema, query, undefined, { production });
  return checked.ok ? 'ok' : checked.error.extensions.code;
};

describe('the GraphQL document checks', () => {
  it('lets every operation the portal and the device app send through', () => {
    for (const [name, query] of Object.entries(documents)) expect(codeOf(query, true), name).toBe('ok');
  });

  it('refuses introspection in production only', () => {
    const introspection = '{ __schema { queryType { name } } }';
    expect(codeOf(introspection, true)).toBe('graphql.invalid_query');
    expect(codeOf('{ __type(name: "Query") { name } }', true)).toBe('graphql.invalid_query');
    expect(codeOf(introspection, false)).toBe('ok');
  });

  it('names nothing of the schema in production: no "Did you mean …?", at validation or execution', () => {
    const checked = checkDocument(schema, '{ masterDevic { id } }', undefined, { production: true });
    expect(checked.ok ? '' : checked.error.message).toBe('Cannot query field "masterDevic" on type "Query".');
    // Errors graphql-js raises while running (a variable's value) pass through formatError.
    const running = new GraphQLError(
      'Value "IO" does not exist in "DevicePlatform" enum. Did you mean "IOS"?',
    );
    const fail = () => {
      throw new Error('not an internal error');
    };
    expect(formatError(running, fail, { production: true }).message).toBe(
      'Value "IO" does not exist in "DevicePlatform" enum.',
    );
    expect(formatError(running, fail, { production: false }).message).toContain('Did you mean "IOS"?');
  });

  it('refuses documents nested deeper than 6, also through fragments, and counts list fields tenfold', () => {
    expect(codeOf('{ masterDevice { a { b { c { d { e { f } } } } } } }')).toBe('graphql.query_too_deep');
    expect(
      codeOf(
        'query { ...A } fragment A on Query { masterDevice { ...B } } fragment B on MasterDevice { x { y { z { w { v { u } } } } } }',
      ),
    ).toBe('graphql.query_too_deep');
    const pending =
      'p: pendingChallenges { id numbers account tenantName ipAddress userAgent createdAt expiresAt }';
    expect(codeOf(`{ ${pending} }`)).toBe('ok');
    expect(codeOf(`{ ${pending} ${pending.replace('p:', 'q:')} }`)).toBe('graphql.query_too_costly');
    expect(maxCost).toBeLessThan(200);
  });

  it('refuses what does not parse, validate, or name one operation', () => {
    expect(codeOf('{')).toBe('graphql.invalid_query');
    expect(codeOf('query A { masterDevice { id } } query B { masterDevice { id } }')).toBe(
      'graphql.invalid_query',
    );
    expect(codeOf('x'.repeat(20_000))).toBe('graphql.invalid_query');
    expect(codeOf(`{ ${'masterDevice { id } '.repeat(1000)} }`)).toBe('graphql.invalid_query');
  });
});

describe('the resolvers', () => {
  it('cover every root field of the schema, and only those', () => {
    const resolvers = mobileResolvers({
      db: undefined as never,
      config: undefined as never,
      key: Buffer.alloc(32),
      clock: { now: () => 0 },
      events: memoryEvents(),
      log: { info() {}, warn() {} },
    });
    expect(() => attachResolvers(loadMobileSchema(), resolvers)).not.toThrow();
    const extra = { ...resolvers, Query: { ...resolvers.Query, unknownField: async () => null } };
    expect(() => attachResolvers(loadMobileSchema(), extra as never)).toThrow(/unknownField/);
    const { masterDevice: _, ...missing } = resolvers.Query;
    expect(() => attachResolvers(loadMobileSchema(), { ...resolvers, Query: missing } as never)).toThrow(
      /masterDevice/,
    );
  });
});
