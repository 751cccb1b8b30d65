import { errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer } from '../../platform/http/errors.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import type { EmailContent, PhoneContent, PushContent } from '../../platform/messaging/message.types.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { escapeHtml } from '../../platform/shared/html.ts';
import type { Services } from '../context.ts';

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1', 'localhost']);

/** Every client address a request names: its socket's, and any a proxy forwarded. */
export function clientAddressesOf(request: FastifyRequest): string[] {
  const addresses = [request.socket.remoteAddress ?? ''];
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  };
  for (const entry of header('x-forwarded-for').split(',')) if (entry.trim()) addresses.push(entry.trim());
  const realIp = header('x-real-ip').trim();
  if (realIp) addresses.push(realIp);
  // RFC 7239: Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"
  for (const match of header('forwarded').matchAll(/for=("?)([^;,"]+)\1/gi)) {
    const node = match[2] ?? '';
    const bracketed = /^\[([^\]]+)\]/.exec(node)?.[1];
    const [name, port, ...more] = node.split(':');
    addresses.push(bracketed ?? (port !== undefined && more.length === 0 ? (name ?? node) : node));
  }
  return addresses.map((address) => address.toLowerCase());
}

/** Host names the outbox answers on: loopback, and *.localhost (the demo's login domains). */
function isLocalHost(host: string | undefined): boolean {
  const name = hostnameOf(host);
  return loopback.has(name) || name === '[::1]' || name.endsWith('.localhost');
}

/**
 * The outbox page is for the person at this machine: the request must come from loopback,
 * no proxy header may name another client (a local reverse proxy would otherwise make every
 * remote visitor look local), and the Host must be a local name (a page whose own domain
 * rebinds to 127.0.0.1 would otherwise read the mail's links). Nothing of it is cached.
 */
function assertLocal(request: FastifyRequest, reply: FastifyReply): boolean {
  reply.header('cache-control', 'no-store');
  if (isLocalHost(request.host) && clientAddressesOf(request).every((address) => loopback.has(address))) {
    return true;
  }
  notFound(reply);
  return false;
}

function notFound(reply: FastifyReply) {
  const { status, body } = errorAnswer(new AppError(errorCodes.notFound));
  return reply.status(status).send(body);
}

const pageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";
// A mail's own HTML: no scripts, no forms; its images and links are the mail's own.
const mailCsp =
  "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

const utc = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** One line for the list: what the phone's notification would read, and which device. */
function pushSummary(push: PushContent): string {
  return `PUSH to ${push.platform} device ${push.deviceId}: ${push.title} — ${push.body}`;
}

/** A push's page: the visible notification, then what routes it to the device. */
function pushDetail(push: PushContent, recipient: string, status: string, lastError: string | null): string {
  const rows: [string, string][] = [
    ['Title', push.title],
    ['Body', push.body],
    ['Platform', push.platform],
    ['Device id', push.deviceId],
    ['Challenge id', push.data?.challengeId ?? ''],
    ['Endpoint', push.data?.endpoint ?? ''],
    ['Expires', utc(push.expiresAt)],
    ['Push token', recipient === push.deviceId ? '(none)' : recipient],
    ['Delivery', lastError ? `${status} (${lastError})` : status],
  ];
  const list = rows
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const note =
    push.platform === 'WEB'
      ? '<p>Web devices have no push service: the device app receives this challenge over its GraphQL subscription.</p>'
      : '';
  return `<h1>Push to a ${escapeHtml(push.platform)} device</h1><dl>${list}</dl>${note}`;
}

/**
 * The local outbox (default mode only, loopback only): every mail, SMS, voice message and
 * mobile-app push the portal would send, readable by a person, with working links. /_dev/outbox.json serves
 * the same to tests.
 */
export async function devOutboxRoutes(app: FastifyInstance, { db, config }: Services): Promise<void> {
  if (!config.embedded) return;

  const list = (recipient?: string) => {
    let query = db.selectFrom('outbox').selectAll().orderBy('created_at', 'desc').limit(200);
    // Addresses are stored lower-case; push tokens keep their case.
    if (recipient) query = query.where('recipient', 'in', [recipient, recipient.toLowerCase()]);
    return query.execute();
  };

  app.get<{ Querystring: { to?: unknown } }>('/_dev/outbox.json', async (request, reply) => {
    if (!assertLocal(request, reply)) return;
    const { to } = request.query;
    const rows = await list(typeof to === 'string' ? to : undefined);
    return rows.map((row) => ({
      id: row.id,
      tenant: row.tenant_code,
      channel: row.channel,
      to: row.recipient,
      template: row.template,
      status: row.status,
      createdAt: row.created_at,
      content: JSON.parse(row.payload) as EmailContent | PhoneContent | PushContent,
    }));
  });

  app.get('/_dev/outbox', async (request, reply) => {
    if (!assertLocal(request, reply)) return;
    const rows = await list();
    const items = rows
      .map((row) => {
        const content = JSON.parse(row.payload) as Partial<EmailContent & PhoneContent>;
        const title =
          row.channel === 'email'
            ? content.subject
            : row.channel === 'push'
              ? pushSummary(content as unknown as PushContent)
              : `${row.channel.toUpperCase()}: ${content.text}`;
        return `<li><a href="/_dev/outbox/${escapeHtml(row.id)}">${escapeHtml(title)}</a>
<span> to ${escapeHtml(row.recipient)} · ${escapeHtml(row.tenant_code)} · ${utc(row.created_at)} · ${escapeHtml(row.status)}</span></li>`;
      })
      .join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageCsp)
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Keycard outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}li{margin:.5rem 0}span{color:#4d4d4d}a{color:#0b4f8a}</style></head>
<body><main><h1>Outbox</h1><p>Messages Keycard would send, newest first (default mode only).</p>
${rows.length ? `<ul>${items}</ul>` : '<p>No messages yet.</p>'}</main></body></html>`);
  });

  app.get<{ Params: { id: string } }>('/_dev/outbox/:id', async (request, reply) => {
    if (!assertLocal(request, reply)) return;
    const { id } = request.params;
    const row = await db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return notFound(reply);
    const content = JSON.parse(row.payload) as Partial<EmailContent & PhoneContent>;
    const body =
      row.channel === 'push'
        ? pushDetail(content as unknown as PushContent, row.recipient, row.status, row.last_error)
        : row.channel === 'email'
          ? `<h1>${escapeHtml(content.subject)}</h1><p>To ${escapeHtml(row.recipient)}</p>
<p><a href="/_dev/outbox/${escapeHtml(row.id)}/html">Open the HTML version</a></p><pre>${linkify(content.text ?? '')}</pre>`
          : `<h1>${row.channel === 'sms' ? 'SMS' : 'Voice call'} to ${escapeHtml(row.recipient)}</h1><p>${linkify(content.text ?? '')}</p>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageCsp)
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox message</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}pre{white-space:pre-wrap}a{color:#0b4f8a}dt{font-weight:600}dd{margin:0 0 .5rem}</style></head>
<body><main><p><a href="/_dev/outbox">← Outbox</a></p>${body}</main></body></html>`);
  });

  app.get<{ Params: { id: string } }>('/_dev/outbox/:id/html', async (request, reply) => {
    if (!assertLocal(request, reply)) return;
    const { id } = request.params;
    const row = await db
      .selectFrom('outbox')
      .select(['payload', 'channel'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.channel !== 'email') return notFound(reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', mailCsp)
      .send((JSON.parse(row.payload) as EmailContent).html);
  });
}
