/** The messenger feature's public face: what other features and the surfaces may use. */
export { messengerConfigOf, messengerSettingsOf } from './messenger.ts';
