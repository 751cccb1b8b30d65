import type { CaptchaConfig } from '@keycard/contract/lifecycle';
import type { CaptchaAction } from '@keycard/contract/lifecycle-api';
import { accountApi } from './api.ts';

/** The part of the reCAPTCHA v3 browser API the portal uses. */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const stepTimeoutMs = 10_000;
let config: Promise<CaptchaConfig> | undefined;
let script: Promise<void> | undefined;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('captcha timeout')), stepTimeoutMs)),
  ]);
}

function loadScript(scriptUrl: string, siteKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(scriptUrl);
    url.searchParams.set('render', siteKey);
    const element = document.createElement('script');
    element.src = url.href;
    element.async = true;
    element.onload = () => resolve();
    element.onerror = () => {
      element.remove();
      reject(new Error('captcha script failed'));
    };
    document.head.append(element);
  });
}

/**
 * A captcha token for an action (SPEC §1: SIGNUP and PASSWORD_RESET), when the tenant uses a
 * captcha. Any failure to get one is ignored: the answer is then undefined, and a tenant that
 * verifies tokens refuses the request itself.
 */
export async function captchaToken(action: CaptchaAction): Promise<string | undefined> {
  try {
    config ??= accountApi.captchaConfig();
    const { siteKey, scriptUrl } = await config;
    if (!siteKey || !scriptUrl) return undefined;
    script ??= loadScript(scriptUrl, siteKey);
    await withTimeout(script);
    const grecaptcha = window.grecaptcha;
    if (!grecaptcha) return undefined;
    await withTimeout(new Promise<void>((resolve) => grecaptcha.ready(resolve)));
    return await withTimeout(grecaptcha.execute(siteKey, { action }));
  } catch {
    // Try again from scratch next time (a network hiccup should not disable captcha for good).
    config = undefined;
    script = undefined;
    return undefined;
  }
}
