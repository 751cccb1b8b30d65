/** The operators feature's public face: what other features and the surfaces may use. */
export { adminResource, consoleClientId, repairOperatorTenant } from './operator-tenant.ts';
export type { Operator } from './operators.service.ts';
export {
  changeOperator,
  createMachineClient,
  createOwner,
  describeOperator,
  findOperator,
  inviteOperator,
  listOperators,
  removeOperator,
} from './operators.service.ts';
export { chooseOperatorOrigin, readServerOrigin } from './server-origin.ts';
