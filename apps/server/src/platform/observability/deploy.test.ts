import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Metrics } from './metrics.ts';

/**
 * deploy/prometheus-rules.yml and deploy/grafana-dashboard.json ask only for series Keycard
 * exposes (a renamed metric fails here, not silently in production), and with promtool
 * installed (Debian's `prometheus` package) the rules and every dashboard query are checked
 * and the rules' unit tests run.
 */
const deploy = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../deploy');
const rulesFile = path.join(deploy, 'prometheus-rules.yml');
const dashboardFile = path.join(deploy, 'grafana-dashboard.json');

interface RuleFile {
  groups: Array<{ name: string; rules: Array<{ alert?: string; record?: string; expr: string }> }>;
}
interface Dashboard {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
}

const rules = parse(readFileSync(rulesFile, 'utf8')) as RuleFile;
const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as Dashboard;
const ruleExprs = rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
const dashboardExprs = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => target.expr),
);

async function exposedNames(): Promise<Set<string>> {
  const metrics = new Metrics({ tenantLabel: false });
  const names = new Set<string>(['up']);
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

/** Debian's prometheus package brings promtool; .ci/run installs it. */
const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((file) => existsSync(file));

describe('alert rules and dashboard', () => {
  it('ask only for series Keycard exposes', async () => {
    const names = await exposedNames();
    const used = new Set<string>();
    for (const expr of [...ruleExprs, ...dashboardExprs]) {
      for (const match of expr.matchAll(
        /\b(keycard_[a-z_]+|nodejs_[a-z0-9_]+|process_[a-z_]+|up)\b(?=\s*[{[)])/g,
      )) {
        used.add(match[1] ?? '');
      }
    }
    expect(used.size).toBeGreaterThan(15);
    for (const name of used) expect(names.has(name), name).toBe(true);
    // Every alert says what it means and what to do.
    for (const rule of rules.groups.flatMap((group) => group.rules))
      expect(rule.alert, rule.expr).toBeTruthy();
  });

  it('pass promtool: the rules, their unit tests and every dashboard query', () => {
    // Fails without promtool: install Debian's prometheus package (as .ci/run does).
    const tool = promtool ?? 'promtool';
    execFileSync(tool, ['check', 'rules', rulesFile]);
    execFileSync(tool, ['test', 'rules', path.join(deploy, 'prometheus-rules.test.yml')]);
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-dashboard-'));
    try {
      const file = path.join(dir, 'dashboard-queries.yml');
      const records = dashboardExprs.map((expr, index) => ({
        record: `dashboard:query${index}`,
        expr: expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*'),
      }));
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules: records }] }));
      execFileSync(tool, ['check', 'rules', file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
