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

/** Outbox template name of the mail that lists partner links removed by a claim. */
export const partnerLinksRemovedTemplate = 'account.partner-links-removed';

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

export interface PartnerLinksRemovedMailInput {
  locale: Locale;
  theme: Theme;
  origin: string;
  /** The portal's sign-in page on the tenant's domain, in the user's language. */
  link: string;
  /** The display names of the partners whose links were removed, in order. */
  partners: string[];
}

/**
 * The mail to an account's owner after they claimed it (password reset, activation, e-mail
 * verification): it was linked to these partners without their confirmation, and the links
 * were removed (issue 16). Partner names are the operator's display names, escaped by the
 * layout like every other text.
 */
export async function renderPartnerLinksRemovedMail(
  input: PartnerLinksRemovedMailInput,
): Promise<EmailContent> {
  const texts = (await loadTexts(input.locale)).lifecycle.mail;
  const mail = texts.partnerLinksRemoved;
  const values = { tenant: input.theme.name };
  const layout: MailLayoutInput = {
    locale: input.locale,
    theme: input.theme,
    origin: input.origin,
    subject: format(mail.subject, values),
    heading: mail.heading,
    paragraphs: [
      format(mail.body, values),
      ...input.partners.map((partner) => `\u2022 ${partner}`),
      mail.relink,
    ],
    action: { label: mail.action, href: input.link },
    notes: [mail.notYou],
    linkHint: texts.linkHint,
    footer: format(texts.footer, values),
  };
  return { subject: layout.subject, html: renderMailHtml(layout), text: renderMailText(layout) };
}
