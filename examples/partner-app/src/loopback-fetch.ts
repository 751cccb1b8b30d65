import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const loopbackAddress: LookupAddress = { address: '127.0.0.1', family: 4 };

/** True for `localhost` and any `*.localhost` name (RFC 6761 reserves them for loopback). */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * A `dns.lookup` replacement, because the system resolver does not always map `*.localhost` to loopback.
 * Node's happy-eyeballs connect asks with `all: true` and then expects an array of addresses.
 */
export function lookupWithLoopback(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (!isLoopbackHostname(hostname)) {
    lookup(hostname, options, callback);
    return;
  }
  if (options.all) callback(null, [loopbackAddress]);
  else callback(null, loopbackAddress.address, loopbackAddress.family);
}

const loopbackAgent = new Agent({ connect: { lookup: lookupWithLoopback } });

/**
 * `fetch` that resolves `*.localhost` to 127.0.0.1; usable as openid-client's `[customFetch]`.
 * Only string and URL inputs are accepted: undici's fetch cannot read a global `Request` object.
 */
export async function loopbackFetch(input: string | URL, init?: object): Promise<Response> {
  // undici's Response is the same class Node exposes globally, but the two copies' type declarations differ.
  const response = await undiciFetch(input, { ...init, dispatcher: loopbackAgent });
  return response as unknown as Response;
}
