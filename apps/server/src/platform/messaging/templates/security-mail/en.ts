/** One security mail's words: {{tenant}}, {{name}}, {{factor}} and {{partner}} are filled in. */
export interface SecurityMailEventTexts {
  subject: string;
  heading: string;
  body: string;
}

/** The words of the security mails in one language (security-mail.ts renders them). */
export interface SecurityMailTexts {
  passwordChanged: SecurityMailEventTexts;
  passkeyAdded: SecurityMailEventTexts;
  passkeyRemoved: SecurityMailEventTexts;
  factorAdded: SecurityMailEventTexts;
  factorRemoved: SecurityMailEventTexts;
  recoveryCodesRenewed: SecurityMailEventTexts;
  partnerLinked: SecurityMailEventTexts;
  newBrowserSignIn: SecurityMailEventTexts;
  /** The MFA factors by the account page's names, for {{factor}}. */
  factors: { authenticatorApp: string; phone: string; mobileApp: string };
  /** The lines under the message: when, which browser, from which address. */
  when: string;
  browser: string;
  /** {{browser}} on {{os}}, e.g. "Firefox on Windows". */
  browserOn: string;
  address: string;
  unknown: string;
  ifYou: string;
  notYou: string;
  /** The button that starts a password reset. */
  notYouAction: string;
  /** The link to the account page. */
  accountAction: string;
  linkHint: string;
  footer: string;
}

export const securityMailEn: SecurityMailTexts = {
  passwordChanged: {
    subject: 'Your {{tenant}} password was changed',
    heading: 'Your password was changed',
    body: 'The password of your {{tenant}} account was just changed. Your other sessions were signed out.',
  },
  passkeyAdded: {
    subject: 'A passkey was added to your {{tenant}} account',
    heading: 'A passkey was added',
    body: 'The passkey “{{name}}” can now sign in to your {{tenant}} account.',
  },
  passkeyRemoved: {
    subject: 'A passkey was removed from your {{tenant}} account',
    heading: 'A passkey was removed',
    body: 'The passkey “{{name}}” can no longer sign in to your {{tenant}} account.',
  },
  factorAdded: {
    subject: 'A sign-in step was added to your {{tenant}} account',
    heading: 'A second sign-in step was set up',
    body: 'Signing in to your {{tenant}} account now asks for a second step: {{factor}}.',
  },
  factorRemoved: {
    subject: 'A sign-in step was removed from your {{tenant}} account',
    heading: 'A second sign-in step was removed',
    body: 'The second sign-in step “{{factor}}” was removed from your {{tenant}} account.',
  },
  recoveryCodesRenewed: {
    subject: 'New recovery codes for your {{tenant}} account',
    heading: 'New recovery codes were made',
    body: 'New recovery codes were made for your {{tenant}} account. The old ones no longer work.',
  },
  partnerLinked: {
    subject: '{{partner}} was linked to your {{tenant}} account',
    heading: 'A partner was linked',
    body: '{{partner}} can now sign you in to your {{tenant}} account.',
  },
  newBrowserSignIn: {
    subject: 'New sign-in to your {{tenant}} account',
    heading: 'A new browser signed in',
    body: 'Your {{tenant}} account was signed in to from a browser it has not seen before.',
  },
  factors: { authenticatorApp: 'authenticator app', phone: 'phone', mobileApp: 'mobile app' },
  when: 'When',
  browser: 'Browser',
  browserOn: '{{browser}} on {{os}}',
  address: 'Address',
  unknown: 'unknown',
  ifYou: 'If this was you, there is nothing more to do.',
  notYou:
    'If this was not you, reset your password now and then review your account: someone else may know your password.',
  notYouAction: 'This was not me',
  accountAction: 'Review your account',
  linkHint: 'If the button does not work, copy this link into your browser:',
  footer: 'This e-mail was sent by {{tenant}} because it concerns the security of your account.',
};
