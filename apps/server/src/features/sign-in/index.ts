/** The sign-in feature's public face: what other features and the surfaces may use. */

export type { SignIn } from './sign-in-state.ts';
export {
  amrOf,
  isGrantSufficient,
  loadAccount,
  loadSignIn,
  signInMethodOfAmr,
  signInOf,
} from './sign-in-state.ts';
