import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/keycard.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Issue 19: `npm start`'s banner (scripts/start.ts) on ports that are not the defaults prints the
 * ports really in use, lists Summit, tells how to create the first owner while there is none,
 * and stops once one exists.
 */
describe('the start banner', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-start-'));
  let started: ChildProcess | undefined;
  afterAll(() => {
    started?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const env = async () => {
    const { PORT: _p, PUBLIC_PORT: _pp, ...rest } = process.env;
    return {
      ...rest,
      NODE_ENV: 'development',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      PORT: String(await freePort()),
      DEMO_PORT: String(await freePort()),
      PARTNER_PORT: String(await freePort()),
      MOBILE_APP_PORT: String(await freePort()),
    };
  };

  /** Starts everything, waits for the banner, stops everything; answers the banner and the ports. */
  async function banner(): Promise<{ text: string; ports: Record<string, string> }> {
    const ports = await env();
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', path.join(root, 'scripts/start.ts')],
      {
        env: ports,
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    started = child;
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on('data', () => undefined);
    const deadline = Date.now() + 60_000;
    while (
      !/Admin console[\s\S]*\n\n/.test(out.slice(out.indexOf('Keycard is running.'))) ||
      !out.includes('Keycard is running.')
    ) {
      if (Date.now() > deadline) throw new Error(`no banner within a minute:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    started = undefined;
    return { text: out.slice(out.indexOf('Keycard is running.')), ports };
  }

  it('prints the ports in use, lists Summit, and asks for an owner only while there is none', async () => {
    const first = await banner();
    const { PORT: port, DEMO_PORT: demo, PARTNER_PORT: partner, MOBILE_APP_PORT: device } = first.ports;
    expect(first.text).toContain(`http://grand-hotel.localhost:${port}/login`);
    expect(first.text).toContain(`http://summit.localhost:${port}/login`);
    expect(first.text).toContain('Summit');
    expect(first.text).toContain(`http://localhost:${demo}/`);
    expect(first.text).toContain(`http://localhost:${partner}/`);
    expect(first.text).toContain(`http://localhost:${device}/`);
    expect(first.text).toContain(`http://admin.localhost:${port}/console/`);
    expect(first.text).not.toContain(':3000');
    expect(first.text).toContain('npx keycard operators create-owner --email');

    // The owner, made in another shell without PORT: the link is on the port the server used.
    const { PORT: _p, ...cliEnv } = first.ports;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--disable-warning=ExperimentalWarning',
        path.join(root, 'apps/server/src/surfaces/cli/cli.ts'),
        'operators',
        'create-owner',
        '--email',
        'owner@start.example',
      ],
      { env: cliEnv, cwd: root },
    );
    expect(new URL(stdout.trim()).origin).toBe(`http://admin.localhost:${port}`);

    const second = await banner();
    expect(second.text).toContain(`http://admin.localhost:${second.ports.PORT}/console/`);
    expect(second.text).not.toContain('create-owner');
  });
});
