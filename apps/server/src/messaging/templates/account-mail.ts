import { type Locale, lifecycleTokenTtl, type Theme } from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import type { EmailContent } from '../message.types.ts';
import { type MailLayoutInput, renderMailHtml, renderMailText } from './layout.ts';

export type AccountMailKind = 'activation' | 'reset' | 'verifyEmail';

/** Outbox template names (the outbox row's `template` column). */
export const accountMailTemplates: Record<AccountMailKind, string> = {
  activation: 'account.activation',
  reset: 'account.reset',
  verifyEmail: 'account.verify-email',
};

export interface AccountMailInput {
  kind: AccountMailKind;
  locale: Locale;
  theme: Theme;
  /** The tenant's public origin; the link must point at it too. */
  origin: string;
  link: string;
}

/**
 * Renders an account mail (activation, reset, e-mail verification) in the user's language,
 * themed for the tenant: subject, HTML and plain text. Rendered once, at enqueue time, so
 * what the outbox delivers later is exactly what was decided in the transaction.
 */
export async function renderAccountMail(input: AccountMailInput): Promise<EmailContent> {
  const texts = (await loadTexts(input.locale)).lifecycle.mail;
  const mail = texts[input.kind];
  const values = {
    tenant: input.theme.name,
    days: lifecycleTokenTtl.activationDays,
    minutes: lifecycleTokenTtl.resetMinutes,
    hours: lifecycleTokenTtl.verificationHours,
  };
  const layout: MailLayoutInput = {
    locale: input.locale,
    theme: input.theme,
    origin: input.origin,
    subject: format(mail.subject, values),
    heading: mail.heading,
    paragraphs: [format(mail.body, values)],
    action: { label: mail.action, href: input.link },
    notes: [format(mail.expiry, values), mail.ignore],
    linkHint: texts.linkHint,
    footer: format(texts.footer, values),
  };
  return { subject: layout.subject, html: renderMailHtml(layout), text: renderMailText(layout) };
}
