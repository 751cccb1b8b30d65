/**
 * A new passkey's default name: the passkey provider its AAGUID names, for the few everyone
 * has (from the community list passkeydeveloper/passkey-authenticator-aaguids), else what kind
 * it is. The person may rename it; the date tells two of the same kind apart.
 */
const providers: Record<string, string> = {
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain',
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
};

export function defaultPasskeyName(
  aaguid: string,
  kind: { synced: boolean; crossPlatform: boolean },
  now: number,
): string {
  const date = new Date(now).toISOString().slice(0, 10);
  const provider = providers[aaguid.toLowerCase()];
  if (provider) return `${provider} (${date})`;
  const label = !kind.synced && kind.crossPlatform ? 'Security key' : 'Passkey';
  return `${label} (${date})`;
}
