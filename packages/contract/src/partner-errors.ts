/** Error codes of partner single sign-on (docs/partners.md). */
export const partnerErrors = {
  /** No partner with this code on the host's tenant. */
  unknown: 'partner.unknown',
  /**
   * The partner token does not verify: signature, key, algorithm, issuer, audience, times or
   * claims. One code for all, so a forger learns nothing; the reason is logged.
   */
  tokenInvalid: 'partner.token_invalid',
  /** The partner token's jti was accepted before (each is single use). */
  tokenReplayed: 'partner.token_replayed',
  /** The partner's keys (its JWKS URL) cannot be fetched right now. */
  keysUnavailable: 'partner.keys_unavailable',
  /** No account may be linked to this subject under the partner's linking policy. */
  accountNotLinked: 'partner.account_not_linked',
  /** The linked account is disabled or not active. */
  accountDisabled: 'partner.account_disabled',
  /** generate-token for a session that is not this partner's authx session, or a wrong token. */
  sessionMismatch: 'partner.session_mismatch',
  /**
   * A first sign-in of a subject whose address the partner does not assert as verified
   * (`email_verified: true`): nothing is linked or created on an unverified address.
   */
  emailUnverified: 'partner.email_unverified',
  /** Keeping a partner link from a session the owner did not open with their own credentials. */
  ownerSessionRequired: 'partner.owner_session_required',
  /** The signed-in account has no link to this partner subject. */
  linkNotFound: 'partner.link_not_found',
} as const;
export type PartnerErrorCode = (typeof partnerErrors)[keyof typeof partnerErrors];
