import { adminApi } from '@keycard/contract/admin';
import type { z } from 'zod';
import { accessToken, isFreshTokenRefused, markTokenAccepted, refuseAccess, signIn } from './auth.ts';

/** A failed admin API call: the contract's error code (or `network`), shown translated. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: unknown;
  constructor(code: string, status: number, fields?: unknown) {
    super(code);
    this.code = code;
    this.status = status;
    this.fields = fields;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body, or an uploaded file (sent as it is, with its own type). */
  body?: unknown;
  file?: { data: Blob; type: string };
  query?: Record<string, string | number | undefined>;
}

/** `/tenants/a b` → the admin API address, with each query value encoded. */
export function apiUrl(path: string, query: RequestOptions['query'] = {}): string {
  const url = new URL(`${adminApi.base}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url.pathname + url.search;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  // No token, or one about to run out: sign in again (silently while the provider's session
  // holds) and come back to this page; drafts are in sessionStorage.
  const token = accessToken() ?? (await signIn());
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (options.file) {
    headers['content-type'] = options.file.type;
    body = options.file.data;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), { method: options.method ?? 'GET', headers, body });
  } catch {
    throw new ApiError('network', 0);
  }
  if (response.ok) {
    markTokenAccepted();
    return response;
  }
  if (response.status === 401) {
    // A token refused right after its sign-in: the account is not (or no longer) an operator.
    // Another sign-in would bring the same refusal at once, so the console says so instead.
    // Any other refusal (429 included) is shown as an error, never answered with a sign-in.
    if (isFreshTokenRefused()) refuseAccess();
    else await signIn();
  }
  const answer = (await response.json().catch(() => ({}))) as { code?: string; fields?: unknown };
  throw new ApiError(answer.code ?? 'unknown', response.status, answer.fields);
}

/** Calls the admin API and parses the answer with its contract schema. */
export async function callApi<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const response = await send(path, options);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) throw new ApiError('contract', response.status);
  return parsed.data;
}

/** The raw answer (the audit export, JSON lines). */
export function fetchApi(path: string, options: RequestOptions = {}): Promise<Response> {
  return send(path, options);
}
