import type { AccountFactorKind, BrowserSummary, Locale, Theme } from '@keycard/contract';
import { format } from '@keycard/texts';
import { escapeHtml } from '../../shared/html.ts';
import type { EmailContent } from '../message.types.ts';
import { mailButton, mailLink, mailParagraph, renderMailFrame } from './layout.ts';
import { securityMailDe } from './security-mail/de.ts';
import { type SecurityMailTexts, securityMailEn } from './security-mail/en.ts';
import { securityMailEs } from './security-mail/es.ts';
import { securityMailFr } from './security-mail/fr.ts';
import { securityMailId } from './security-mail/id.ts';
import { securityMailIt } from './security-mail/it.ts';
import { securityMailPt } from './security-mail/pt.ts';
import { securityMailTh } from './security-mail/th.ts';

/** What happened to the account: each has its own mail. */
export const securityMailEvents = [
  'password-changed',
  'passkey-added',
  'passkey-removed',
  'factor-added',
  'factor-removed',
  'recovery-codes-renewed',
  'partner-linked',
  'new-browser-sign-in',
] as const;
export type SecurityMailEvent = (typeof securityMailEvents)[number];

/** Outbox template name of a security mail (the outbox row's `template` column). */
export function securityMailTemplate(event: SecurityMailEvent): string {
  return `security.${event}`;
}

export const securityMailTexts: Record<Locale, SecurityMailTexts> = {
  en: securityMailEn,
  de: securityMailDe,
  es: securityMailEs,
  fr: securityMailFr,
  id: securityMailId,
  it: securityMailIt,
  pt: securityMailPt,
  th: securityMailTh,
};

const eventKeys = {
  'password-changed': 'passwordChanged',
  'passkey-added': 'passkeyAdded',
  'passkey-removed': 'passkeyRemoved',
  'factor-added': 'factorAdded',
  'factor-removed': 'factorRemoved',
  'recovery-codes-renewed': 'recoveryCodesRenewed',
  'partner-linked': 'partnerLinked',
  'new-browser-sign-in': 'newBrowserSignIn',
} as const satisfies Record<SecurityMailEvent, keyof SecurityMailTexts>;

const factorKeys = {
  'authenticator-app': 'authenticatorApp',
  phone: 'phone',
  'mobile-app': 'mobileApp',
} as const satisfies Record<AccountFactorKind, keyof SecurityMailTexts['factors']>;

export interface SecurityMailInput {
  event: SecurityMailEvent;
  locale: Locale;
  theme: Theme;
  /** The tenant's public origin; both links point at it. */
  origin: string;
  /** "This was not me": the reset request page for the account's address. */
  resetLink: string;
  /** The account page. */
  accountLink: string;
  /** When it happened, and from which browser and address (null: not known). */
  at: number;
  browser: BrowserSummary | null;
  ip: string | null;
  /** passkey-added/removed: the passkey's name. */
  name?: string | undefined;
  /** factor-added/removed: which factor. */
  factor?: AccountFactorKind | undefined;
  /** partner-linked: the partner's display name. */
  partner?: string | undefined;
}

function browserLine(texts: SecurityMailTexts, browser: BrowserSummary | null): string {
  if (!browser?.name && !browser?.os) return texts.unknown;
  if (browser.name && browser.os) return format(texts.browserOn, { browser: browser.name, os: browser.os });
  return browser.name ?? browser.os ?? texts.unknown;
}

/** When, in the account's language, in UTC (the mail cannot know the reader's time zone). */
function timeLine(locale: Locale, at: number): string {
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

interface SecurityMailParts {
  subject: string;
  heading: string;
  body: string;
  details: Array<[string, string]>;
  ifYou: string;
  notYou: string;
  notYouAction: { label: string; href: string };
  accountAction: { label: string; href: string };
  linkHint: string;
  footer: string;
}

function partsOf(input: SecurityMailInput): SecurityMailParts {
  const texts = securityMailTexts[input.locale];
  const mail = texts[eventKeys[input.event]];
  const values = {
    tenant: input.theme.name,
    name: input.name ?? '',
    partner: input.partner ?? '',
    factor: input.factor ? texts.factors[factorKeys[input.factor]] : '',
  };
  return {
    subject: format(mail.subject, values),
    heading: format(mail.heading, values),
    body: format(mail.body, values),
    details: [
      [texts.when, timeLine(input.locale, input.at)],
      [texts.browser, browserLine(texts, input.browser)],
      [texts.address, input.ip ?? texts.unknown],
    ],
    ifYou: texts.ifYou,
    notYou: texts.notYou,
    notYouAction: { label: texts.notYouAction, href: input.resetLink },
    accountAction: { label: texts.accountAction, href: input.accountLink },
    linkHint: texts.linkHint,
    footer: format(texts.footer, values),
  };
}

/**
 * The HTML of a security mail: the account mails' frame (layout.ts), what happened with when,
 * browser and address, then the "this was not me" button and the account page's link, both
 * spelled out for clients that block buttons. Every value is escaped: a passkey's or a
 * partner's name is the user's or an operator's text.
 */
function renderHtml(input: SecurityMailInput, parts: SecurityMailParts): string {
  const details = parts.details
    .map(
      ([label, value]) =>
        `<tr><td style="padding:2px 12px 2px 0;font-size:14px;line-height:20px;color:#4d4d4d;white-space:nowrap;vertical-align:top;">${escapeHtml(label)}</td><td style="padding:2px 0;font-size:14px;line-height:20px;">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  return renderMailFrame(
    { ...input, subject: parts.subject, footer: parts.footer },
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;">${escapeHtml(parts.heading)}</h1>
${mailParagraph(parts.body)}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;">
${details}
</table>
${mailParagraph(parts.ifYou)}
${mailParagraph(parts.notYou)}
${mailButton(input.theme, parts.notYouAction)}
<p style="margin:0 0 16px;font-size:16px;line-height:24px;"><a href="${escapeHtml(parts.accountAction.href)}" style="color:#0b4f8a;">${escapeHtml(parts.accountAction.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#4d4d4d;">${escapeHtml(parts.linkHint)}<br>
${escapeHtml(parts.notYouAction.label)}: ${mailLink(parts.notYouAction.href)}<br>
${escapeHtml(parts.accountAction.label)}: ${mailLink(parts.accountAction.href)}</p>`,
  );
}

/** The plain-text part: the same words, each link on a line of its own. */
function renderText(parts: SecurityMailParts): string {
  return [
    parts.heading,
    '',
    parts.body,
    '',
    ...parts.details.map(([label, value]) => `${label}: ${value}`),
    '',
    parts.ifYou,
    '',
    parts.notYou,
    `${parts.notYouAction.label}:`,
    parts.notYouAction.href,
    '',
    `${parts.accountAction.label}:`,
    parts.accountAction.href,
    '',
    '--',
    parts.footer,
    '',
  ].join('\n');
}

/**
 * Renders a security mail (a password changed, a passkey or factor added or removed, new
 * recovery codes, a partner linked, a sign-in from a new browser) in the account's language,
 * themed for the tenant. Rendered at enqueue time, like the account mails.
 */
export function renderSecurityMail(input: SecurityMailInput): EmailContent {
  const parts = partsOf(input);
  return { subject: parts.subject, html: renderHtml(input, parts), text: renderText(parts) };
}
