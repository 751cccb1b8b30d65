/** The configuration feature's public face: what other features and the surfaces may use. */

export {
  applyConfigurationPlan,
  exportTenant,
  hasChanges,
  planConfiguration,
} from './configuration.service.ts';
export type { FieldChange, PlannedObject } from './configuration.types.ts';
export { ConfigurationFileError, configurationYaml, readConfigurationFile } from './configuration-file.ts';
export { clientMetadata, settingsPatchOf } from './stored-configuration.ts';
