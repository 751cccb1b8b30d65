import type { MfaStatusResponse } from '@keycard/contract/mfa';

/** The address the preview's screens show as typed (a reserved example domain, RFC 2606). */
export const sampleEmail = 'alex.morgan@example.com';

/**
 * The code-entry screen's state as GET /api/mfa/status would answer it for a user with an
 * authenticator app: that screen sends nothing on arrival (a phone factor would send a code).
 */
export const sampleMfaStatus: MfaStatusResponse = {
  state: 'MFA_VERIFICATION_REQUIRED',
  userType: 'staff',
  email: sampleEmail,
  mfaRequiredByRemainingInDays: null,
  canSkip: false,
  trustedDeviceDays: 30,
  factor: { deliveryType: 'totp', phone: null, deviceName: null },
  methods: ['totp', 'sms'],
  recoveryCodesRemaining: 10,
  freshVerification: false,
  phoneAvailable: true,
};
