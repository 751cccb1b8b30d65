import type {
  MasterDevice,
  MasterDeviceSetup,
  MasterDeviceSetupEvent,
  MasterDeviceSetupResult,
  NumberChallenge,
  NumberChallengeOutcome,
} from '@keycard/contract/mobile-mfa';

export type {
  MasterDevice,
  MasterDeviceSetup,
  MasterDeviceSetupEvent,
  MasterDeviceSetupResult,
  NumberChallenge,
  NumberChallengeOutcome,
};

import type { ApiRequestError } from '../../../lib/api.ts';
import { graphqlRequest, graphqlSubscribe } from '../../../lib/graphql.ts';

/**
 * The portal's operations of packages/contract/src/mobile-mfa.graphql, with the result types
 * the contract declares once for server and portal (each document asks only for what the
 * screens show).
 */

const deviceFields = 'id name platform createdAt lastUsedAt';

interface Listener<T> {
  onData: (data: T) => void;
  onError: (error: ApiRequestError) => void;
}

export const mobileApi = {
  masterDevice: async () =>
    (
      await graphqlRequest<{ masterDevice: MasterDevice | null }>(
        `query MasterDevice { masterDevice { ${deviceFields} } }`,
        {},
        'MasterDevice',
      )
    ).masterDevice,

  setup: async (replace: boolean) =>
    (
      await graphqlRequest<{ setupMasterDevice: MasterDeviceSetup }>(
        `mutation SetupMasterDevice($replace: Boolean) {
          setupMasterDevice(replace: $replace) { setupId enrolmentUri qrCode expiresAt expiresInSeconds }
        }`,
        { replace },
        'SetupMasterDevice',
      )
    ).setupMasterDevice,

  finishSetup: async (setupId: string) =>
    (
      await graphqlRequest<{ finishMasterDeviceSetup: MasterDeviceSetupResult }>(
        `mutation FinishMasterDeviceSetup($setupId: ID!) {
          finishMasterDeviceSetup(setupId: $setupId) { state recoveryCodes device { ${deviceFields} } }
        }`,
        { setupId },
        'FinishMasterDeviceSetup',
      )
    ).finishMasterDeviceSetup,

  numberChallenge: async () =>
    (
      await graphqlRequest<{ numberChallenge: NumberChallenge }>(
        'mutation NumberChallenge { numberChallenge { id number expiresAt expiresInSeconds } }',
        {},
        'NumberChallenge',
      )
    ).numberChallenge,

  watchSetup: (setupId: string, listener: Listener<MasterDeviceSetupEvent>) =>
    graphqlSubscribe<{ masterDeviceSetup: MasterDeviceSetupEvent }>(
      `subscription MasterDeviceSetup($setupId: ID!) {
        masterDeviceSetup(setupId: $setupId) { setupId status deviceName }
      }`,
      { setupId },
      { onData: (data) => listener.onData(data.masterDeviceSetup), onError: listener.onError },
    ),

  watchChallenge: (challengeId: string, listener: Listener<NumberChallengeOutcome>) =>
    graphqlSubscribe<{ numberChallengeOutcome: NumberChallengeOutcome }>(
      `subscription NumberChallengeOutcome($challengeId: ID!) {
        numberChallengeOutcome(challengeId: $challengeId) { challengeId status retryAfterSeconds }
      }`,
      { challengeId },
      { onData: (data) => listener.onData(data.numberChallengeOutcome), onError: listener.onError },
    ),
};
