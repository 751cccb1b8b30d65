import type { DemoApp } from '@keycard/demo-app/app';
import type { PartnerApp } from '@keycard/partner-app/app';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startDemoApp } from './demo-app.ts';
import { type Keycard, startKeycard } from './keycard.ts';
import { startPartnerApp } from './partner-app.ts';

export interface SignInStack {
  keycard: Keycard;
  demoApp: DemoApp;
  browser: Browser;
}

/**
 * Keycard, the demo app registered with it, and Chromium, for the tests of one describe
 * block: started before them, closed after them. Read the parts inside the tests.
 */
export function useSignInStack(options: { env?: Record<string, string> } = {}): SignInStack {
  const stack = {} as SignInStack;
  beforeAll(async () => {
    stack.keycard = await startKeycard(options.env ? { env: options.env } : {});
    stack.demoApp = await startDemoApp(stack.keycard);
    stack.browser = await launchBrowser();
  });
  afterAll(async () => {
    await stack.browser?.close();
    await stack.demoApp?.close();
    await stack.keycard?.close();
  });
  return stack;
}

export interface PartnerSignInStack extends SignInStack {
  partnerApp: PartnerApp;
}

/** The sign-in stack plus the demo partner app, registered with Keycard as `demo-partner`. */
export function usePartnerSignInStack(options: { env?: Record<string, string> } = {}): PartnerSignInStack {
  const stack = useSignInStack(options) as PartnerSignInStack;
  beforeAll(async () => {
    stack.partnerApp = await startPartnerApp(stack.keycard);
  });
  afterAll(async () => {
    await stack.partnerApp?.close();
  });
  return stack;
}
