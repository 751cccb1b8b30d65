/**
 * Flow values for the MFA screens, kept per tab by /authenticate (SPEC §3 session store:
 * mfaResetRedirectUri) and read by /mfa and /mfa/reset.
 */
export const mfaFlowKeys = {
  resetRedirectUri: 'AUTH_X_MFA_RESET_REDIRECT_URI',
  purpose: 'AUTH_X_MFA_PURPOSE',
} as const;

/** SPEC §2 /authenticate purpose value that asks for an MFA reset. */
export const mfaResetPurpose = 'for-mfa-reset';
