import type { ChallengeDecision, ChallengeStatus } from '@keycard/contract/mobile-mfa';

/**
 * Every text of the device app. English only, by design: the app stands in for a partner's
 * own mobile app, which brings its own languages; Keycard's eight are the portal's.
 */
export const texts = {
  connection: {
    connecting: 'Connecting…',
    connected: 'Connected: waiting for sign-in requests.',
    reconnecting: 'Connection lost: reconnecting…',
    offline: 'Offline: sign-in requests cannot reach this device.',
  },
  pairing: {
    invalidUri:
      'This is not an enrolment link: it must start with keycard-mfa://enrol? and carry an endpoint, a token and a tenant.',
    invalidEndpoint: 'The enrolment link names an endpoint that is not an http or https URL.',
    pairing: 'Pairing…',
    paired: (tenantName: string, account: string) => `Paired with ${tenantName} as ${account}.`,
    noQrFound: 'No QR code found in that image.',
    qrRead: 'QR code read: check the link and pair.',
    cameraUnavailable: 'The camera cannot be used here',
  },
  /** masterDeviceLogin said mobile.no_device: replaced by another phone, or MFA was reset. */
  unpaired:
    'This device is no longer paired with the account: another device replaced it, or two-step verification was reset. Forget this pairing to pair again.',
  summary: (tenantName: string, account: string, deviceName: string) =>
    `${account} at ${tenantName}, on this device (“${deviceName}”).`,
  challenge: {
    title: 'Sign-in request',
    announce: (tenantName: string, account: string) =>
      `New sign-in request for ${account} at ${tenantName}. Pick the number shown on the sign-in screen.`,
    prompt: 'Which number does the sign-in screen show?',
    tenant: 'Tenant',
    account: 'Account',
    ipAddress: 'IP address',
    userAgent: 'Browser',
    unknown: 'Unknown',
    timeLeft: 'Time left',
    seconds: (seconds: number) => `${seconds} s`,
    expired: 'Expired: the request timed out.',
    closed: 'Closed',
    sending: 'Sending your answer…',
  },
  outcome: (status: ChallengeStatus, decision: ChallengeDecision): string => {
    if (status === 'APPROVED') return 'Approved: the sign-in continues on the other screen.';
    if (status === 'FAILED') return 'Wrong number: the sign-in was refused (FAILED).';
    if (status === 'TIMEOUT') return 'Too late: the request timed out (TIMEOUT).';
    if (status === 'REJECTED' && decision === 'report')
      return 'Reported: the sign-in was refused and further requests are paused (REJECTED).';
    if (status === 'REJECTED') return 'Denied: the sign-in was refused (REJECTED).';
    return `The request is ${status}.`;
  },
  error: (message: string, code: string) => `${message} (${code})`,
} as const;
