/**
 * Checks shared by the texts tests of the portal (texts.test.ts) and the admin console
 * (apps/console/src/texts/texts.test.ts): a catalogue's key paths and its {{placeholders}}.
 */

/** Flattens a catalogue into dotted key path → leaf value (leaves are whatever isn't a plain object). */
export function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const nested = leaves(value, path);
        // An empty group has no leaves; keep it visible as a path of its own.
        if (nested.size === 0) out.set(path, value);
        for (const [p, v] of nested) out.set(p, v);
      } else {
        out.set(path, value);
      }
    }
  }
  return out;
}

/** The {{name}} placeholder names in a text, sorted and de-duplicated (same pattern as `format`). */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? ''))].sort();
}

/** Anything brace-like that is not a well-formed {{name}} placeholder, e.g. `{name}` or `{{ name }}`. */
export function strayBraces(text: string): boolean {
  return /[{}]/.test(text.replace(/\{\{\w+\}\}/g, ''));
}

export function compareKeys(expected: unknown, actual: unknown): { missing: string[]; extra: string[] } {
  const want = [...leaves(expected).keys()];
  const have = new Set(leaves(actual).keys());
  return {
    missing: want.filter((path) => !have.has(path)),
    extra: [...have].filter((path) => !want.includes(path)),
  };
}
