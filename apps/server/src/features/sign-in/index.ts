/** The sign-in feature's public face: what other features and the surfaces may use. */

export { isPasskeyMethod, isRecentSignIn, recentSignInMs } from './recent-sign-in.ts';
export type { SignIn } from './sign-in-state.ts';
export {
  acrOf,
  amrOf,
  isGrantSufficient,
  loadAccount,
  loadSignIn,
  meetsAcrValues,
  passkeyAcrValues,
  signInMethodOfAmr,
  signInOf,
} from './sign-in-state.ts';
