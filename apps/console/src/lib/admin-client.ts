import {
  type AdminAddress,
  type AdminAnswer,
  type AdminBody,
  type AdminLooseAddress,
  type AdminOperation,
  formatAdminUrl,
} from '@keycard/contract/admin-paths';
import { ApiError, errorFromAnswer } from './api-error.ts';
import { accessToken, isFreshTokenRefused, markTokenAccepted, refuseAccess, signIn } from './auth.ts';

/**
 * The console's one way to the admin API: an operation of `@keycard/contract/admin-paths` and
 * what it takes. Its address, its body and its answer are all typed from the operation's
 * schemas, and every answer is parsed with the schema of the status it came with.
 */

/** Nothing at all: what an operation that needs no input is called with. */
type Nothing = Record<string, never>;

type BodyPart<O extends AdminOperation> = O extends { body: unknown } | { upload: unknown }
  ? // A body that may be empty may be left out, and then none is sent.
    Nothing extends AdminBody<O>
    ? { body?: AdminBody<O> }
    : { body: AdminBody<O> }
  : { body?: undefined };

/** What a call of an operation takes: its path parameters, query and body. */
export type AdminCall<O extends AdminOperation> = AdminAddress<O> & BodyPart<O>;

type CallArgs<O extends AdminOperation> =
  Nothing extends AdminCall<O> ? [call?: AdminCall<O>] : [call: AdminCall<O>];

interface LooseCall extends AdminLooseAddress {
  body?: unknown;
}

/** A JSON answer is parsed with its status's schema: anything else is off the contract. */
export function readAnswer(operation: AdminOperation, status: number, answer: unknown): unknown {
  const schema = operation.responses[status];
  const parsed = schema?.safeParse(answer);
  if (!parsed?.success) throw new ApiError('contract', status);
  return parsed.data;
}

function isUpload(body: unknown): body is { data: Blob; type: string } {
  return typeof body === 'object' && body !== null && 'data' in body && body.data instanceof Blob;
}

async function send(operation: AdminOperation, call: LooseCall): Promise<Response> {
  // No token, or one about to run out: sign in again (silently while the provider's session
  // holds) and come back to this page; drafts are in sessionStorage.
  const token = accessToken() ?? (await signIn());
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (operation.upload && isUpload(call.body)) {
    headers['content-type'] = call.body.type;
    body = call.body.data;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  const url = formatAdminUrl(operation, call);
  let response: Response;
  try {
    response = await fetch(url, { method: operation.method, headers, body });
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
  throw errorFromAnswer(response.status, await response.json().catch(() => null));
}

/**
 * Calls an admin API operation and answers its parsed answer:
 * `await adminRequest(adminOperations.getTenant, { params: { code } })` is the tenant.
 * A refusal throws an `ApiError` with the contract's code.
 */
export function adminRequest<O extends AdminOperation & { format?: 'json' }>(
  operation: O,
  ...call: CallArgs<O>
): Promise<AdminAnswer<O>>;
export async function adminRequest(operation: AdminOperation, call: LooseCall = {}): Promise<unknown> {
  const response = await send(operation, call);
  const answer: unknown = await response.json().catch(() => undefined);
  return readAnswer(operation, response.status, answer);
}

/** Calls an operation that answers a file (the audit export, JSON lines) and answers its bytes. */
export function adminDownload<O extends AdminOperation & { format: 'ndjson' }>(
  operation: O,
  ...call: CallArgs<O>
): Promise<Blob>;
export async function adminDownload(operation: AdminOperation, call: LooseCall = {}): Promise<Blob> {
  const response = await send(operation, call);
  return response.blob();
}
