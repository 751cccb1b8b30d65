import { readFileSync } from 'node:fs';
import { type Configuration, type ConfigurationInput, configurationSchema } from '@keycard/contract';
import { Document, parse as parseYaml } from 'yaml';
import type { z } from 'zod';

/** A configuration file Keycard cannot use: each problem names the file and the field. */
export class ConfigurationFileError extends Error {
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(problems.map((problem) => `${file}: ${problem}`).join('\n'));
    this.problems = problems;
  }
}

/** A field path as an operator reads it: tenants[0].clients[1].redirectUris[0]. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `${fieldPath([...issue.path, key])}: unknown field`).join('\n');
    }
    return `${fieldPath(issue.path) || '(the file)'}: ${issue.message}`;
  });
}

/** Parses and checks a configuration text; JSON for .json files, YAML otherwise. */
export function parseConfiguration(file: string, text: string): Configuration {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    throw new ConfigurationFileError(file, [
      `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    ]);
  }
  const checked = configurationSchema.safeParse(raw ?? {});
  if (!checked.success) throw new ConfigurationFileError(file, problemsOf(checked.error));
  return checked.data;
}

export function readConfigurationFile(file: string): Configuration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigurationFileError(file, [`cannot be read (${(error as NodeJS.ErrnoException).code})`]);
  }
  return parseConfiguration(file, text);
}

/** The YAML an export writes, with a header saying what it leaves out. */
export function configurationYaml(configuration: ConfigurationInput, header: string): string {
  const document = new Document(configuration);
  document.commentBefore = header;
  return document.toString({ lineWidth: 0 });
}
