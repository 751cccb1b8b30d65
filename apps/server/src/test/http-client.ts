import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';

/** A minimal browser stand-in: one origin's cookies, no automatic redirects. */
export class Browser {
  readonly cookies = new Map<string, string>();

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
    const response = await loopbackFetch(target, {
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
