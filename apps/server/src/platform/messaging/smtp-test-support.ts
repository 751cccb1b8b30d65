/** Test support for real-SMTP tests: a small MIME reader for what an SMTP server receives. */

export interface ReceivedMail {
  headers: Record<string, string>;
  text: string;
  html: string;
}

function decodeBytes(text: string, encoding: string): string {
  const kind = encoding.trim().toLowerCase();
  if (kind === 'base64') return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind !== 'quoted-printable') return text;
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_match, kind: string, body: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(body, 'base64').toString('utf8')
        : decodeBytes(body.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Reads a message as received over SMTP: its headers and its text and HTML parts, decoded. */
export function parseMail(raw: string): ReceivedMail {
  const { headers, body } = splitHead(raw);
  const mail: ReceivedMail = { headers, text: '', html: '' };
  const boundary = headers['content-type']?.match(/boundary="?([^";]+)"?/)?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => splitHead(part.replace(/^\r\n/, '')))
    : [{ headers, body }];
  for (const part of parts) {
    const type = part.headers['content-type'] ?? 'text/plain';
    const decoded = decodeBytes(part.body, part.headers['content-transfer-encoding'] ?? '7bit');
    if (type.startsWith('text/html')) mail.html = decoded;
    else if (type.startsWith('text/plain')) mail.text = decoded;
  }
  return mail;
}
