// API paths of partner sign-in and links (SPEC §7); the login route's help link is one of them.

export const partnerApi = {
  sso: (partnerCode: string) => `/api/partners/${encodeURIComponent(partnerCode)}/sso`,
  generateToken: (partnerCode: string) => `/api/partners/${encodeURIComponent(partnerCode)}/generate-token`,
  helpLink: (partnerCode: string, email: string) =>
    `/api/partners/${encodeURIComponent(partnerCode)}/users/${encodeURIComponent(email)}/help-link`,
  /** GET: the signed-in account's partner links and the ones removed from it. */
  links: '/api/account/partner-links',
  /** PUT: the owner keeps (confirms) the link; DELETE: drops it for good. */
  link: (partnerCode: string, subject: string) =>
    `/api/account/partner-links/${encodeURIComponent(partnerCode)}/${encodeURIComponent(subject)}`,
} as const;
