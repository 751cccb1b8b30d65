/**
 * First-paint benchmark (issue 11): how soon a visitor on a slow phone sees the branded login
 * form, and how soon it answers, measured in Chromium with 4× CPU throttling and a slow-3G
 * network (Lighthouse's profile: 400 ms round trip, 400 kbit/s each way) —
 *
 *   FCP  first contentful paint (the browser's own paint timing)
 *   TTI  interactive: the portal script has taken over the login form (the e-mail field
 *        belongs to the running script, so Next validates and moves on without a reload)
 *
 * for the page as Keycard serves it (rendered per host: theme, texts and form in the first
 * response) and, in the same run, for the plain single-page shell it served before (blank
 * until the script, the theme call and the texts arrive). Each is loaded BENCH_PAINT_RUNS
 * times in a fresh browser context (nothing cached); medians are printed, with the ratio
 * first paint ÷ plain shell (below 1: sooner) and the targets (FCP < 1.5 s, TTI < 2.5 s).
 *
 *   npm run build && npm run bench          (the login bench runs first; then this one)
 *   node bench/first-paint.bench.ts
 *
 * BENCH_PAINT_RUNS (5)   page loads per variant
 * PORTAL_DIST            the built portal (default apps/portal/dist)
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createApp, defaultPortalDist } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { seedDemo } from '../apps/server/src/surfaces/seed/demo.ts';

const runs = Number(process.env.BENCH_PAINT_RUNS ?? 5);
if (!Number.isInteger(runs) || runs < 1) throw new Error('BENCH_PAINT_RUNS must be a positive integer');
const portalDist = process.env.PORTAL_DIST ?? defaultPortalDist;
if (!existsSync(path.join(portalDist, 'index.html'))) {
  throw new Error(`No built portal in ${portalDist}: run npm run build first`);
}

/** Lighthouse's slow 3G: 400 ms RTT, 400 kbit/s down and up (bytes per second for CDP). */
const slow3g = { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };
const cpuSlowdown = 4;

async function startServer(firstPaint: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-bench-paint-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  const database = await openDatabase({ databaseUrl: undefined, sqliteFile: path.join(dir, 'bench.sqlite') });
  await seedDemo(database.kysely);
  const { app } = await createApp({
    config,
    database,
    secrets: { cookieKeys: [config.cookieSecret!], encryptionKey: Buffer.from(config.encryptionKey!, 'hex') },
    logger: false,
    portalDist,
    firstPaint,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://grand-hotel.localhost:${port}`,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Marks the moment the portal script owns the login form: its e-mail field exists and the
 * server's form (data-kc-first-paint) is gone.
 */
const interactiveProbe = `(() => {
  const check = () => {
    if (document.querySelector('input[name="email"]') && !document.querySelector('[data-kc-first-paint]')) {
      window.__kcInteractive = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  document.addEventListener('DOMContentLoaded', () => { if (!check()) observer.observe(document, { childList: true, subtree: true }); });
})();`;

interface Sample {
  fcp: number;
  tti: number;
  scripts: number;
}

async function measure(origin: string, browser: import('playwright-core').Browser): Promise<Sample> {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', slow3g);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  await page.addInitScript(interactiveProbe);
  await page.goto(`${origin}/login`, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForFunction(
    () => (globalThis as { __kcInteractive?: number }).__kcInteractive !== undefined,
    null,
    {
      timeout: 120_000,
    },
  );
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
    timeout: 120_000,
  });
  const result = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    tti: (globalThis as { __kcInteractive?: number }).__kcInteractive ?? Number.NaN,
    // When the last script of the page had arrived: TTI minus this is the CPU's share.
    scripts: Math.max(
      0,
      ...performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => (entry as unknown as { responseEnd: number }).responseEnd),
    ),
  }));
  await context.close();
  return result;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const served = await startServer(true);
const plain = await startServer(false);
try {
  const samples = {
    served: [] as Sample[],
    plain: [] as Sample[],
  };
  // Alternate the two, so a slower moment of the machine hits both alike.
  for (let run = 0; run < runs; run++) {
    samples.served.push(await measure(served.origin, browser));
    samples.plain.push(await measure(plain.origin, browser));
  }
  const summary = (list: Sample[]) => ({
    fcp: median(list.map((s) => s.fcp)),
    tti: median(list.map((s) => s.tti)),
    scripts: median(list.map((s) => s.scripts)),
  });
  const a = summary(samples.served);
  const b = summary(samples.plain);
  console.log(`first paint, slow 3G + ${cpuSlowdown}× CPU, ${runs} loads each (medians)`);
  console.log(
    `  rendered per host: FCP ${seconds(a.fcp)}  TTI ${seconds(a.tti)}  (scripts arrived ${seconds(a.scripts)})`,
  );
  console.log(
    `  plain shell:       FCP ${seconds(b.fcp)}  TTI ${seconds(b.tti)}  (scripts arrived ${seconds(b.scripts)})`,
  );
  console.log(
    `  ratio (rendered ÷ plain): FCP ${(a.fcp / b.fcp).toFixed(2)}  TTI ${(a.tti / b.tti).toFixed(2)}`,
  );
  console.log(
    `  targets: FCP < 1.5 s ${a.fcp < 1500 ? 'met' : 'NOT met'}, TTI < 2.5 s ${a.tti < 2500 ? 'met' : 'NOT met'}`,
  );
} finally {
  await browser.close();
  await served.close();
  await plain.close();
}

// Keeps the file a module when imported for its types.
export const benchFile = fileURLToPath(import.meta.url);
