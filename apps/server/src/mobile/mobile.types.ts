import type { ChallengeStatus, DevicePlatform, MasterDeviceSetupStatus } from '@keycard/contract';

/**
 * The GraphQL types of packages/contract/src/mobile-mfa.graphql as the resolvers return them
 * (times are epoch milliseconds). graphql.test.ts checks every name here against the schema.
 */
export interface MasterDevice {
  id: string;
  name: string;
  platform: DevicePlatform;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface MasterDeviceSetup {
  setupId: string;
  enrolmentUri: string;
  qrCode: string;
  expiresAt: number;
  expiresInSeconds: number;
}

export interface MasterDeviceSetupEvent {
  setupId: string;
  status: MasterDeviceSetupStatus;
  deviceName: string | null;
}

export interface MasterDeviceSetupResult {
  state: string;
  recoveryCodes: string[];
  device: MasterDevice;
}

export interface NumberChallenge {
  id: string;
  number: number;
  expiresAt: number;
  expiresInSeconds: number;
}

export interface NumberChallengeOutcome {
  challengeId: string;
  status: ChallengeStatus;
  retryAfterSeconds: number | null;
}

export interface DeviceChallenge {
  id: string;
  numbers: number[];
  account: string;
  tenantName: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface ChallengeAnswer {
  challengeId: string;
  status: ChallengeStatus;
}

export interface DeviceSession {
  accessToken: string;
  expiresAt: number;
  device: MasterDevice;
  account: string;
  tenantName: string;
}
