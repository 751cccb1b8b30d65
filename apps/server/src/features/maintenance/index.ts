/** The maintenance feature's public face: what other features and the surfaces may use. */
export { startJanitor } from './janitor.ts';
