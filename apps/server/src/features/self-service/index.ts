/** The self-service feature (the account page, docs/account.md): what the surfaces may use. */
export type { AccountCaller, SelfServiceDeps } from './access.ts';
export { recentSignInOf } from './access.ts';
export { accountActivity } from './activity.service.ts';
export {
  accountSessions,
  endAccountSession,
  endOtherAccountSessions,
  forgetTrustedBrowser,
  forgetTrustedBrowsers,
  listTrustedBrowsers,
  signOutOfApp,
} from './devices.service.ts';
export { removeAccountFactor } from './factors.service.ts';
export { accountOverview } from './overview.service.ts';
export { changeAccountPassword, reauthenticate } from './password.service.ts';
