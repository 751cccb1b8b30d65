import type { Locale, Theme } from '@keycard/contract';
import { nearestPassing, textContrast } from '@keycard/contract/contrast';
import { escapeHtml } from '../../shared/html.ts';

/** A theme image as an absolute URL on the tenant's own origin (mail clients have no base URL). */
export function absoluteUrl(origin: string, src: string): string {
  try {
    return new URL(src, `${origin}/`).href;
  } catch {
    return `${origin}/`;
  }
}

export interface MailLayoutInput {
  locale: Locale;
  theme: Theme;
  /** The tenant's public origin, e.g. https://login.grand-hotel.example */
  origin: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  action: { label: string; href: string };
  notes: string[];
  linkHint: string;
  footer: string;
}

const fontStack =
  "system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai',Helvetica,Arial,sans-serif";

/** What a mail's frame needs: its language, the tenant's theme and origin, its title and footer. */
export interface MailFrameInput {
  locale: Locale;
  theme: Theme;
  origin: string;
  subject: string;
  footer: string;
}

/** A paragraph of a mail's body, escaped. */
export function mailParagraph(text: string, style = ''): string {
  return `<p style="margin:0 0 16px;font-size:16px;line-height:24px;${style}">${escapeHtml(text)}</p>`;
}

/** A button in the tenant's colours (a table cell: what mail clients render as a button). */
export function mailButton(theme: Theme, action: { label: string; href: string }): string {
  const { colours } = theme;
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr>
<td style="border-radius:6px;background:${escapeHtml(colours.primaryBackground)};">
<a href="${escapeHtml(action.href)}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:${escapeHtml(colours.primaryForeground)};text-decoration:none;border-radius:6px;">${escapeHtml(action.label)}</a>
</td></tr></table>`;
}

/** A link spelled out, for clients that block buttons. */
export function mailLink(href: string): string {
  return `<a href="${escapeHtml(href)}" style="color:#0b4f8a;word-break:break-all;">${escapeHtml(href)}</a>`;
}

/**
 * The frame of every mail Keycard sends: table layout and inline styles (what mail clients
 * render), the tenant's logo on its primary colour (its name where it has no logo, in a colour
 * that reads), the body given (already escaped HTML) and the footer. Every value is escaped.
 */
export function renderMailFrame(input: MailFrameInput, bodyHtml: string): string {
  const { colours, name, images } = input.theme;
  const logo = absoluteUrl(input.origin, images.logo);
  return `<!doctype html>
<html lang="${escapeHtml(input.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(input.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${escapeHtml(colours.secondaryBackground)};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${escapeHtml(colours.secondaryBackground)};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden;font-family:${fontStack};color:#1a1a1a;">
<tr><td style="background:${escapeHtml(colours.primaryBackground)};padding:16px 24px;">
${
  images.logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(name)}" height="40" style="display:block;height:40px;border:0;color:${escapeHtml(colours.primaryForeground)};">`
    : `<p style="margin:0;font-size:20px;line-height:40px;font-weight:700;color:${escapeHtml(nearestPassing(colours.primaryForeground, colours.primaryBackground, textContrast))};">${escapeHtml(name)}</p>`
}
</td></tr>
<tr><td style="padding:32px 24px 8px;">
${bodyHtml}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e5e5;font-size:12px;line-height:18px;color:#4d4d4d;">${escapeHtml(input.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

/**
 * The HTML of every account mail: the frame, one button in the tenant's colours, and the link
 * spelled out for clients that block buttons.
 */
export function renderMailHtml(input: MailLayoutInput): string {
  return renderMailFrame(
    input,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;">${escapeHtml(input.heading)}</h1>
${input.paragraphs.map((text) => mailParagraph(text)).join('\n')}
${mailButton(input.theme, input.action)}
${input.notes.map((text) => mailParagraph(text, 'color:#4d4d4d;')).join('\n')}
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#4d4d4d;">${escapeHtml(input.linkHint)}<br>
${mailLink(input.action.href)}</p>`,
  );
}

/** The plain-text part: the same words, the link on a line of its own. */
export function renderMailText(input: MailLayoutInput): string {
  return [
    input.heading,
    '',
    ...input.paragraphs.flatMap((text) => [text, '']),
    `${input.action.label}:`,
    input.action.href,
    '',
    ...input.notes.flatMap((text) => [text, '']),
    '--',
    input.footer,
    '',
  ].join('\n');
}
