/** The mobile feature's public face: what other features and the surfaces may use. */
export {
  challengeOutcome,
  redeemApprovedChallenge,
  requestChallenge,
  watchChallengeOutcome,
} from './challenge.service.ts';
export { answerChallenge, pendingChallenges, watchDeviceChallenges } from './device-challenge.service.ts';
export {
  activeDeviceName,
  authenticateDevice,
  deactivateUserDevices,
  deviceView,
  findActiveDevice,
  forgetPushToken,
  loginDevice,
} from './device-key.service.ts';
export { finishSetup, registerDevice, setupEvent, setupTopic, startSetup } from './enrolment.service.ts';
export type { MobileEvents } from './events.ts';
export { memoryEvents, postgresEvents, redisEvents, watchRow } from './events.ts';
export type { MobileDeps } from './mobile.deps.ts';
export type { DeviceRow } from './mobile.schema.ts';
