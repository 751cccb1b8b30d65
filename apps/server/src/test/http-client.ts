import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';

/** How a browser reaches the server: loopbackFetch, or one instance of several (test/instances.ts). */
export type Fetcher = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A minimal browser stand-in: one origin's cookies, no automatic redirects. */
export class Browser {
  readonly cookies: Map<string, string>;
  readonly #fetch: Fetcher;

  constructor(fetcher: Fetcher = loopbackFetch, cookies = new Map<string, string>()) {
    this.#fetch = fetcher;
    this.cookies = cookies;
  }

  /**
   * The same browser (one cookie jar) whose requests a load balancer sends to another
   * instance: what one instance set, the other receives.
   */
  through(fetcher: Fetcher): Browser {
    return new Browser(fetcher, this.cookies);
  }

  async fetch(
    url: string,
    init: {
      method?: string;
      body?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
    } = {},
  ) {
    const target = new URL(url);
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.origin = target.origin;
      body = JSON.stringify(init.body);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = target.origin;
      body = new URLSearchParams(init.form).toString();
    }
    const response = await this.#fetch(target, {
      method: init.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
