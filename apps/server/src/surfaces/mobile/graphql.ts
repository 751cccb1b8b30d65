import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type ErrorCode, errorCatalogue, errorCodes, mobileErrors } from '@keycard/contract';
import {
  buildSchema,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  isObjectType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  specifiedRules,
  validate,
} from 'graphql';
import { AppError } from '../../platform/shared/errors.ts';
import { isOutage } from '../../platform/shared/outage.ts';

/**
 * The GraphQL machinery of the endpoint, apart from HTTP and websockets: the schema from the
 * contract's .graphql file, the checks every document passes before it runs (syntax, schema,
 * depth, cost, no introspection in production) and the error shape with contract codes.
 */

/** The schema file committed in the contract, beside mobile-mfa.ts. */
const schemaFile = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@keycard/contract/mobile-mfa')),
  'mobile-mfa.graphql',
);

export function loadMobileSchema(): GraphQLSchema {
  return buildSchema(readFileSync(schemaFile, 'utf8'));
}

/** Field nesting allowed: `{ a { b { c } } }` is 3 deep. The deepest real operation is 3. */
export const maxDepth = 6;
/**
 * A simple cost: 1 per field selected (aliases count each time), and a list of objects costs
 * 10 times its selection. The largest real operation (pendingChallenges) costs 81.
 */
export const maxCost = 150;
/** A document longer than this is refused before parsing. */
const maxDocumentLength = 16 * 1024;

/** A failure with a contract code, as it goes into `errors[]`. */
export function codedError(
  code: ErrorCode,
  options: { message?: string; fields?: Record<string, string> } = {},
) {
  const { status, message } = errorCatalogue[code];
  const extensions: Record<string, unknown> = { code, status };
  const retry = options.fields?.retryAfterSeconds;
  if (retry !== undefined) extensions.retryAfterSeconds = Number(retry);
  return new GraphQLError(options.message ?? message, { extensions });
}

export type CheckedDocument =
  | { ok: true; document: DocumentNode; operation: OperationDefinitionNode }
  | { ok: false; error: GraphQLError };

function depthOf(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const below = selection.selectionSet ? depthOf(selection.selectionSet, fragments, visiting) : 0;
      deepest = Math.max(deepest, 1 + below);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, visiting));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, visiting));
      visiting.delete(name);
    }
  }
  return deepest;
}

function costOf(
  selectionSet: SelectionSetNode,
  parent: GraphQLObjectType,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__')) {
        cost += 1;
        continue;
      }
      const field = parent.getFields()[name];
      if (!field) continue;
      const named = getNamedType(field.type);
      let below = 0;
      if (selection.selectionSet && isObjectType(named)) {
        below = costOf(selection.selectionSet, named, fragments, visiting);
        if (isListType(getNullableType(field.type))) below *= 10;
      }
      cost += 1 + below;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += costOf(selection.selectionSet, parent, fragments, visiting);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (!fragment || visiting.has(selection.name.value)) continue;
      visiting.add(selection.name.value);
      cost += costOf(fragment.selectionSet, parent, fragments, visiting);
      visiting.delete(selection.name.value);
    }
  }
  return cost;
}

/**
 * Parses and checks a document before anything runs: it must parse (with a token limit), be
 * valid against the schema, name one operation, and stay within the depth and cost limits.
 * Introspection is refused in production; elsewhere it runs within the same limits.
 */
export function checkDocument(
  schema: GraphQLSchema,
  query: unknown,
  operationName: unknown,
  options: { production: boolean },
): CheckedDocument {
  const invalid = (message?: string) => ({
    ok: false as const,
    error: codedError(mobileErrors.invalidQuery, message ? { message } : {}),
  });
  if (typeof query !== 'string' || query.length === 0 || query.length > maxDocumentLength) return invalid();
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return invalid();
  }
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 2000, noLocation: false });
  } catch (error) {
    return invalid(error instanceof GraphQLError ? error.message : undefined);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // Depth first, before validation does any work on a hostile document.
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (depthOf(definition.selectionSet, fragments, new Set()) > maxDepth) {
      return { ok: false, error: codedError(mobileErrors.queryTooDeep) };
    }
  }
  const rules = options.production ? [...specifiedRules, NoSchemaIntrospectionCustomRule] : specifiedRules;
  const problems = validate(schema, document, rules, { maxErrors: 5 });
  const problem = problems[0]?.message;
  if (problem !== undefined) return invalid(options.production ? withoutSuggestions(problem) : problem);
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return invalid('Name one operation of the document.');
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return invalid();
  if (costOf(operation.selectionSet, root, fragments, new Set()) > maxCost) {
    return { ok: false, error: codedError(mobileErrors.queryTooCostly) };
  }
  return { ok: true, document, operation };
}

/**
 * graphql-js's messages suggest names of the schema ("Did you mean "masterDevice"?"): fields,
 * arguments, types and enum values a client did not name. In production they are left out, as
 * introspection is: the schema is not handed to whoever guesses at it.
 */
export function withoutSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

/**
 * The error as the client sees it: an AppError keeps its contract code (and retryAfterSeconds);
 * an outage is common.unavailable; anything else is common.internal with the generic message,
 * and `onInternal` hears of it (the route logs it). In production graphql-js's own messages
 * carry no suggestions.
 */
export function formatError(
  error: GraphQLError,
  onInternal: (error: unknown) => void,
  options: { production: boolean },
): GraphQLFormattedError {
  const original = error.originalError;
  const where = {
    ...(error.path ? { path: error.path } : {}),
    ...(error.locations ? { locations: error.locations } : {}),
  };
  if (original instanceof AppError) {
    const coded = codedError(original.code, { fields: original.fields });
    return { message: coded.message, ...where, extensions: coded.extensions };
  }
  if (error.extensions?.code && !original) return error.toJSON();
  if (isOutage(original)) {
    const coded = codedError(errorCodes.unavailable);
    return { message: coded.message, ...where, extensions: coded.extensions };
  }
  if (!original || original instanceof GraphQLError) {
    // graphql-js's own request errors (a variable of the wrong type): the client's mistake.
    const message = options.production ? withoutSuggestions(error.message) : error.message;
    const coded = codedError(mobileErrors.invalidQuery, { message });
    return { message: coded.message, ...where, extensions: coded.extensions };
  }
  onInternal(original);
  const coded = codedError(errorCodes.internal);
  return { message: coded.message, ...where, extensions: coded.extensions };
}

/** The answer to a POST: 200 when the operation ran, 400 for a request the server refused. */
export function httpAnswerOf(
  result: ExecutionResult,
  onInternal: (error: unknown) => void,
  options: { production: boolean },
): { status: number; body: Record<string, unknown> } {
  const errors = result.errors?.map((error) => formatError(error, onInternal, options));
  // No data at all: the request failed before execution (variables did not coerce).
  if (!('data' in result) || result.data === undefined) return { status: 400, body: { errors } };
  return { status: 200, body: errors ? { data: result.data, errors } : { data: result.data } };
}
