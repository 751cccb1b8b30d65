/** The login feature's public face: what other features and the surfaces may use. */

export type { LoginCodeData } from './login.service.ts';
export { addressRule, passwordLogin } from './login.service.ts';
