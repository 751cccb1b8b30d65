import type { FastifyRequest } from 'fastify';
import { type Config, publicOrigin } from '../config.ts';

/** Strips the port (and IPv6 brackets) from a Host value and lower-cases it. */
export function hostnameOf(host: string | undefined): string {
  if (!host) return '';
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.replace(/:\d+$/, '').replace(/\.$/, '');
}

/** The public origin of the portal page that made this request (scheme, host, port). */
export function ownOriginOf(config: Config, request: FastifyRequest): string {
  return publicOrigin(config, hostnameOf(request.host));
}
