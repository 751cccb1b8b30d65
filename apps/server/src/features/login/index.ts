/** The login feature's public face: what other features and the surfaces may use. */

export type { LoginCodeData, PasswordProof } from './login.service.ts';
export { addressRule, checkAccountPassword, passwordLogin } from './login.service.ts';
