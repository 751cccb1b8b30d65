import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { upsertTenant } from '../../apps/server/src/features/tenants/tenant.admin.ts';
import type { TenantSettings } from '../../apps/server/src/features/tenants/tenant.types.ts';
import { demoTenants } from '../../apps/server/src/surfaces/seed/demo.ts';
import type { Keycard } from './keycard.ts';

/** A mail as the local outbox (/_dev/outbox.json) shows it. */
export interface OutboxMail {
  id: string;
  tenant: string;
  to: string;
  template: string;
  status: string;
  createdAt: number;
  content: { subject: string; html: string; text: string };
}

/** Every mail to an address, newest first, read from the running server's outbox. */
export async function mailsTo(keycard: Keycard, to: string): Promise<OutboxMail[]> {
  const response = await fetch(
    `http://localhost:${keycard.port}/_dev/outbox.json?to=${encodeURIComponent(to)}`,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as OutboxMail[];
}

/** Waits for the count-th mail (1-based) of a template to an address, and answers it. */
export async function waitForMail(
  keycard: Keycard,
  to: string,
  template: string,
  count = 1,
): Promise<OutboxMail> {
  let found: OutboxMail[] = [];
  await expect
    .poll(
      async () => {
        found = (await mailsTo(keycard, to)).filter((mail) => mail.template === template);
        return found.length;
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[found.length - count]!;
}

/** The link a mail carries (the plain-text part holds it on a line of its own). */
export function linkIn(mail: OutboxMail): string {
  const match = mail.content.text.match(/https?:\/\/\S+/);
  expect(match, `a link in "${mail.content.subject}"`).not.toBeNull();
  return match![0];
}

/**
 * Reads a mail as a person would on the local outbox page: opens the list, the message, and
 * follows the link in it. Answers when the link's page has started loading.
 */
export async function followMailOnOutboxPage(page: Page, keycard: Keycard, mail: OutboxMail): Promise<void> {
  await page.goto(`${keycard.origin(mail.tenant)}/_dev/outbox`);
  await page.locator(`a[href="/_dev/outbox/${mail.id}"]`).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(mail.content.subject);
  await page.getByRole('link', { name: linkIn(mail) }).click();
}

const cliPath = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/server/src/surfaces/cli/cli.ts',
);

/** Runs the operator CLI against the running server's database, as an operator would. */
export async function keycardCli(
  keycard: Keycard,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  const { DATABASE_URL: _unused, ...env } = process.env;
  return promisify(execFile)(process.execPath, [cliPath, ...args], {
    env: {
      ...env,
      NODE_ENV: 'development',
      DATA_DIR: keycard.services.config.dataDir,
      PORT: String(keycard.port),
      ...(keycard.services.config.databaseUrl ? { DATABASE_URL: keycard.services.config.databaseUrl } : {}),
    },
  });
}

/** Sets a demo tenant's settings (clients and theme as seeded). */
export async function setTenantSettings(
  keycard: Keycard,
  code: string,
  settings: Partial<TenantSettings>,
): Promise<void> {
  const definition = demoTenants.find((tenant) => tenant.code === code)!;
  await upsertTenant(keycard.services.db, { ...definition, settings });
  keycard.services.tenants.invalidate();
}

/** The session facts a browser context has on a tenant (GET /api/session, from the browser itself). */
export async function browserSession(context: BrowserContext, origin: string): Promise<unknown> {
  const probe = await context.newPage();
  try {
    await probe.goto(`${origin}/api/session`);
    return JSON.parse(await probe.locator('body').innerText());
  } finally {
    await probe.close();
  }
}
