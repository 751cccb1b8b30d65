import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { adminErrors } from '@keycard/contract';
import { AppError } from '../shared/errors.ts';

/**
 * Requests to addresses owners set (a partner's key set, the captcha check): they must not
 * reach inside the network the server runs in (OWASP SSRF Prevention Cheat Sheet). Every
 * address the host name resolves to is checked, IPv4 and IPv6 (with IPv4 inside IPv6:
 * mapped, compatible, well-known NAT64, 6to4; translation and tunnel prefixes whose far end
 * cannot be checked — SIIT, local-use NAT64, Teredo — are refused whole), and the connection
 * goes to the address that was checked,
 * so a name that resolves differently a moment later (DNS rebinding) gains nothing. Redirects
 * are never followed. Private addresses are let through only when the server is told to
 * (ALLOW_PRIVATE_OUTBOUND, the default outside production, where local stand-ins run).
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated, RFC 7526)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 2765): only inside a translator's network
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): a translator of the operator's own
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: tunnels to an IPv4 address that is not checked here
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function groupsOf(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string | undefined) => (half ? half.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((group) =>
    Number.parseInt(group, 16),
  );
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(groups: number[]): string | null {
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  return null;
}

/** Whether an address is private, loopback, link-local or otherwise not the internet's. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = groupsOf(address);
  if (!groups) return true;
  // An IPv4 address inside (:: and ::1 read as 0.0.0.0 and 0.0.0.1, private too).
  const inner = embeddedIpv4(groups);
  if (inner) return isPrivateAddress(inner);
  return blocked.check(address.split('%')[0]!, 'ipv6');
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Whether the URL names a private place by itself: a literal private address, or a
 * `localhost` name (which resolves to loopback by convention). A name is judged at fetch time.
 */
export function namesPrivateHost(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const host = hostOf(url).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/**
 * At write time (admin API, `keycard apply`, the partner CLI): a URL the server will fetch that
 * names a private place is refused with a coded 400 naming the field, unless private outbound
 * addresses are allowed.
 */
export function assertOutboundUrl(
  field: string,
  value: string | null | undefined,
  allowPrivate: boolean,
): void {
  if (!value || allowPrivate) return;
  if (namesPrivateHost(value)) {
    throw new AppError(adminErrors.privateAddress, {
      fields: { [field]: 'a private, loopback or link-local address; the server does not fetch it' },
    });
  }
}

export class PrivateAddressError extends Error {}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

export interface OutboundOptions {
  allowPrivate: boolean;
  /** The largest answer read; more is an error (default 1 MiB). */
  maxBytes?: number;
  /** How host names are resolved (tests put names on loopback). */
  resolve?: Resolver;
}

/**
 * fetch for owner-set addresses: http(s) only, every resolved address checked, the checked
 * address connected to, no redirect followed (a 3xx is answered as it is, so a redirect to
 * an inside address goes nowhere), the answer's size bounded.
 */
export async function outboundFetch(
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
  options: OutboundOptions,
): Promise<Response> {
  const url = new URL(target);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PrivateAddressError('not http(s)');
  const host = hostOf(url);
  if (!options.allowPrivate && namesPrivateHost(url.href)) {
    throw new PrivateAddressError(`${host} is a private address`);
  }
  const resolve = options.resolve ?? systemResolver;
  const lookup = (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = options.allowPrivate
          ? []
          : addresses.filter((each) => isPrivateAddress(each.address));
        if (addresses.length === 0 || refused.length > 0) {
          callback(new PrivateAddressError(`${hostname} resolves to a private address`), '');
          return;
        }
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((settle, fail) => {
    const request = client.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        // A literal address is never looked up, so it was checked above; a name is checked here.
        lookup: lookup as never,
        signal: init.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy(new Error('answer too large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = response.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          settle(new Response(body, { status, headers }));
        });
      },
    );
    request.on('error', fail);
    request.end(init.body);
  });
}

/**
 * The addresses in tenant configuration that Keycard's servers fetch — the captcha check and
 * partners' key sets — checked at write time (`keycard apply`, the admin API).
 */
export function assertOutboundAddresses(
  tenant: {
    settings?: { captcha?: { verifyUrl?: string | null | undefined } | undefined } | undefined;
    partners?: ReadonlyArray<{ jwksUri?: string | null | undefined }> | undefined;
  },
  allowPrivate: boolean,
  at = '',
): void {
  assertOutboundUrl(`${at}settings.captcha.verifyUrl`, tenant.settings?.captcha?.verifyUrl, allowPrivate);
  tenant.partners?.forEach((partner, index) => {
    assertOutboundUrl(`${at}partners[${index}].jwksUri`, partner.jwksUri, allowPrivate);
  });
}
