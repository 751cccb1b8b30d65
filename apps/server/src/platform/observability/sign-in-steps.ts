import { apiPaths, errorCatalogue, routePattern } from '@keycard/contract';

/**
 * The routes of a sign-in, by `METHOD route-template`: each is a step of one person's sign-in,
 * counted in keycard_sign_ins_total and traced as a span of its own. MFA proofs are counted
 * in keycard_mfa_verifications_total by their method instead.
 */
export const signInSteps: ReadonlyMap<string, string> = new Map([
  [`POST ${apiPaths.login}`, 'login'],
  [`POST ${apiPaths.authenticate}`, 'authenticate'],
  [`POST ${apiPaths.passkeys.signIn}`, 'passkey'],
  [`POST ${routePattern(apiPaths.partners.sso, 'partnerCode')}`, 'partner_sso'],
  [`POST ${apiPaths.authorize}`, 'authorize'],
]);

/** The routes that check an MFA proof, by `METHOD route-template`. */
export const mfaSteps: ReadonlyMap<string, string> = new Map([
  [`POST ${apiPaths.mfa.verify}`, 'mfa_verify'],
  [`POST ${apiPaths.passkeys.verify}`, 'passkey_verify'],
]);

/** The span name of a traced step: `keycard.login`, `keycard.mfa_verify`, … */
export function stepOf(method: string, route: string | undefined): string | undefined {
  if (route === undefined) return undefined;
  const key = `${method} ${route}`;
  return signInSteps.get(key) ?? mfaSteps.get(key);
}

const mfaMethods = new Set(['totp', 'sms', 'voice']);

/**
 * The MFA method a proof used, from its body (the contract's `mfaProof`): a code's delivery
 * type, a recovery code, or the mobile app's approved challenge; `passkey` on its own route.
 */
export function mfaMethodOf(step: string, body: unknown): string {
  if (step === 'passkey_verify') return 'passkey';
  if (typeof body !== 'object' || body === null) return 'unknown';
  if ('deliveryType' in body && typeof body.deliveryType === 'string' && mfaMethods.has(body.deliveryType)) {
    return body.deliveryType;
  }
  if ('recoveryCode' in body) return 'recovery_code';
  if ('challengeId' in body) return 'smmobile';
  return 'unknown';
}

/** An answered error code as a label: one of the catalogue's, else `other` (bounded either way). */
export function knownCode(code: unknown): string {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code) ? code : 'other';
}
