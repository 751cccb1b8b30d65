/**
 * A strict reader of Prometheus' text exposition format (0.0.4), for tests: every line is a
 * HELP, a TYPE or a sample of a declared family; names and labels are well-formed; label values
 * are unescaped; values are numbers. Anything else throws, so a malformed scrape fails a test.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The sum of the samples named `name` whose labels include `labels`. */
  value(name: string, labels?: Record<string, string>): number;
  /** The samples named `name` (all of them, or those whose labels include `labels`). */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const metricTypes = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const suffixes: Record<string, string[]> = {
  counter: ['', '_total', '_created'],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count', '_created'],
  summary: ['', '_sum', '_count', '_created'],
};

function parseValue(text: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): Inf and NaN in any case (prom-client writes `Nan`).
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number in: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const eq = text.indexOf('=', at);
    if (eq < 0) throw new Error(`label without value in: ${line}`);
    const name = text.slice(at, eq).trim();
    if (!labelName.test(name)) throw new Error(`bad label name "${name}" in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let i = eq + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') {
        const next = text[++i];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else value += text[i];
    }
    if (text[i] !== '"') throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    at = i + 1;
    if (text[at] === ',') at++;
    else if (at < text.length) throw new Error(`expected , between labels in: ${line}`);
  }
  return labels;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  for (const [family, type] of types) {
    for (const suffix of suffixes[type] ?? ['']) if (`${family}${suffix}` === name) return family;
  }
  return undefined;
}

const includes = (labels: Record<string, string>, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => labels[key] === value);

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) continue; // a comment
      const [, kind, name = '', rest = ''] = match;
      if (!metricName.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === 'TYPE') {
        if (!metricTypes.has(rest)) throw new Error(`unknown type in: ${line}`);
        if (types.has(name)) throw new Error(`TYPE twice for ${name}`);
        types.set(name, rest);
      }
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const [, name = '', labelText = '', value = ''] = match;
    if (!familyOf(name, types)) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name, labels: parseLabels(labelText, line), value: parseValue(value, line) });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((sample) => sample.name === name && includes(sample.labels, labels));
  return {
    types,
    samples,
    find,
    value: (name, labels) => find(name, labels).reduce((sum, sample) => sum + sample.value, 0),
  };
}
