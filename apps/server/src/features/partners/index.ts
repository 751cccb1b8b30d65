/** The partners feature's public face: what other features and the surfaces may use. */
export { handoffGrantId, isHandoffReused, redeemHandoffCode } from './handoff.service.ts';
export type { Partner } from './partner.repository.ts';
export {
  deletePartnerRows,
  findPartner,
  listPartners,
  removePartner,
  savePartner,
} from './partner.repository.ts';
export { dropPartnerLink, keepPartnerLink, listPartnerLinks } from './partner-links.service.ts';
export { generatePartnerHandoff, partnerHelpLink, signInWithPartner } from './partner-sso.service.ts';
export { PartnerKeys } from './partner-token.service.ts';
