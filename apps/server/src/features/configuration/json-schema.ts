import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationJsonSchema } from '@keycard/contract';

/** Where the configuration format's JSON Schema is committed, for editors (docs/configuration.md). */
export const jsonSchemaFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../packages/contract/keycard-config.schema.json',
);

export function jsonSchemaText(): string {
  return `${JSON.stringify(configurationJsonSchema(), null, 2)}\n`;
}

// npm run config-schema --workspace @keycard/server: rewrites the file after a schema change.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(jsonSchemaFile, jsonSchemaText());
  process.stdout.write(`Wrote ${jsonSchemaFile}\n`);
}
