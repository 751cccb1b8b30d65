import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Config, publicOrigin } from '../../platform/config.ts';

/**
 * The operator host's public origin as the server that last started on a DATA_DIR serves it,
 * kept in a small file there, so that `keycard operators create-owner` run in another shell
 * (without the server's PORT) writes the console's addresses the server really answers on
 * (issue 19: a server on port 4000 and a CLI writing 3000 locked the owner out).
 */

interface ServerRecord {
  adminOrigin: string;
  pid: number;
  startedAt: number;
}

const recordFile = (config: Config) => path.join(config.dataDir, 'server-origin.json');

/** Written at every start of the server (features/operators repairOperatorTenant). */
export async function recordServerOrigin(config: Config, now: number): Promise<void> {
  const record: ServerRecord = {
    adminOrigin: publicOrigin(config, config.adminDomain),
    pid: process.pid,
    startedAt: now,
  };
  const file = recordFile(config);
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(record)}\n`);
    await rename(temporary, file);
  } catch {
    // A read-only or missing data directory (PostgreSQL deployments) keeps no record: the
    // CLI then goes by its own configuration, which production shares with the server.
  }
}

export async function readServerOrigin(config: Config): Promise<ServerRecord | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(recordFile(config), 'utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'adminOrigin' in parsed &&
      typeof parsed.adminOrigin === 'string' &&
      'pid' in parsed &&
      typeof parsed.pid === 'number' &&
      'startedAt' in parsed &&
      typeof parsed.startedAt === 'number'
    ) {
      return { adminOrigin: parsed.adminOrigin, pid: parsed.pid, startedAt: parsed.startedAt };
    }
  } catch {}
  return null;
}

export type OperatorOrigin =
  | { ok: true; config: Config; note: string | null }
  | { ok: false; reason: string };

/**
 * The configuration an operator command writes addresses with. The environment's PUBLIC_PORT
 * (or PORT) wins when it is set and agrees with the server started on this DATA_DIR; when it
 * is not set, the server's origin is taken; when the two disagree, nothing is written and the
 * reason names PUBLIC_PORT.
 */
export function chooseOperatorOrigin(input: {
  config: Config;
  env: NodeJS.ProcessEnv;
  record: ServerRecord | null;
}): OperatorOrigin {
  const { config, env, record } = input;
  const own = publicOrigin(config, config.adminDomain);
  if (!record || record.adminOrigin === own) return { ok: true, config, note: null };
  let server: URL;
  try {
    server = new URL(record.adminOrigin);
  } catch {
    return { ok: true, config, note: null };
  }
  const explicit = Boolean(env.PUBLIC_PORT || env.PORT || env.PUBLIC_SCHEME);
  if (server.hostname !== config.adminDomain) {
    return {
      ok: false,
      reason:
        `The server started on this DATA_DIR serves the operator host at ${record.adminOrigin}, but this ` +
        `command's ADMIN_DOMAIN is ${config.adminDomain}. Run it with the server's ADMIN_DOMAIN.`,
    };
  }
  if (explicit) {
    return {
      ok: false,
      reason:
        `The server started on this DATA_DIR answers at ${record.adminOrigin}, but this command would write ` +
        `${own} (PUBLIC_PORT=${env.PUBLIC_PORT ?? ''}, PORT=${env.PORT ?? ''}). Set PUBLIC_PORT to the port ` +
        'people reach the server on (as the server has it), or leave PORT and PUBLIC_PORT unset to use the ' +
        "server's.",
    };
  }
  const scheme = server.protocol === 'https:' ? 'https' : 'http';
  const port = server.port ? Number(server.port) : scheme === 'https' ? 443 : 80;
  return {
    ok: true,
    config: { ...config, publicScheme: scheme, publicPort: port },
    note: `Using the server's address ${record.adminOrigin} (the server started on this DATA_DIR; PUBLIC_PORT sets another).`,
  };
}
