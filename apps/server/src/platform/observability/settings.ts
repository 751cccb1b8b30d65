import { ConfigError } from '../config.ts';

/**
 * What the operator turns on for observability (docs/operations.md "Metrics and traces"): a
 * Prometheus listener of its own, a token for /metrics on the operator host, a tenant label.
 * Read from the environment beside loadConfig, so an instance without them loads nothing more.
 */
export interface ObservabilitySettings {
  /** METRICS_PORT: a second listener serving only GET /metrics, for operators' networks. */
  metricsPort: number | undefined;
  /** METRICS_HOST: the address it listens on (default HOST's, as the public listener). */
  metricsHost: string;
  /** METRICS_TOKEN: /metrics on the operator host (ADMIN_DOMAIN) with `Authorization: Bearer`. */
  metricsToken: string | undefined;
  /** METRICS_TENANT_LABEL=true: request and sign-in series carry the tenant's code. */
  tenantLabel: boolean;
}

export function observabilitySettings(env: NodeJS.ProcessEnv = process.env): ObservabilitySettings {
  const port = env.METRICS_PORT?.trim();
  let metricsPort: number | undefined;
  if (port) {
    metricsPort = Number(port);
    if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65_535) {
      throw new ConfigError(`METRICS_PORT: must be a port number (0–65535), not "${port}"`);
    }
    if (metricsPort !== 0 && String(metricsPort) === env.PORT?.trim()) {
      throw new ConfigError('METRICS_PORT: must differ from PORT (the public listener)');
    }
  }
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 16) {
    throw new ConfigError('METRICS_TOKEN: must be at least 16 characters');
  }
  const tenantLabel = env.METRICS_TENANT_LABEL?.trim().toLowerCase() ?? '';
  if (!['', 'true', 'false'].includes(tenantLabel)) {
    throw new ConfigError('METRICS_TENANT_LABEL: must be true or false');
  }
  return {
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || env.HOST?.trim() || 'localhost',
    metricsToken: token,
    tenantLabel: tenantLabel === 'true',
  };
}

/** Whether anyone can read the metrics: only then are they collected at all. */
export function metricsEnabled(settings: ObservabilitySettings): boolean {
  return settings.metricsPort !== undefined || settings.metricsToken !== undefined;
}
