import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** What the FCM adapter needs from a service account's JSON key file. */
export interface FcmServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: string;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/**
 * Reads a service account key file (as the Firebase console downloads it) and checks it at
 * start, so a wrong file stops the start instead of failing every push later.
 */
export function readFcmServiceAccount(file: string): FcmServiceAccount {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readText(file)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error('is not a JSON key file');
    throw error;
  }
  if (json.type !== 'service_account')
    throw new Error('is not a service account key file (type service_account)');
  const { client_email: clientEmail, private_key: privateKey, private_key_id: privateKeyId } = json;
  const tokenUri = json.token_uri ?? 'https://oauth2.googleapis.com/token';
  if (typeof clientEmail !== 'string' || !clientEmail.includes('@')) throw new Error('has no client_email');
  if (typeof privateKey !== 'string') throw new Error('has no private_key');
  if (typeof tokenUri !== 'string' || !URL.canParse(tokenUri)) throw new Error('has no valid token_uri');
  let keyType: string | undefined;
  try {
    keyType = createPrivateKey(privateKey).asymmetricKeyType;
  } catch {
    throw new Error('has a private_key that is not a PEM private key');
  }
  if (keyType !== 'rsa') throw new Error('has a private_key that is not an RSA key');
  if (!privateKey.includes('-----BEGIN PRIVATE KEY-----'))
    throw new Error('has a private_key not in PKCS#8 form');
  return {
    clientEmail,
    privateKey,
    privateKeyId: typeof privateKeyId === 'string' && privateKeyId ? privateKeyId : undefined,
    tokenUri,
  };
}

/** Reads an APNs signing key (.p8: PKCS#8 PEM of a P-256 key) and checks it at start. */
export function readApnsKey(file: string): string {
  const pem = readText(file);
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error('is not a PEM private key (.p8)');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('is not a P-256 key (.p8 from the Apple developer account)');
  }
  // jose's importPKCS8 takes PKCS#8 only, the form Apple hands out.
  if (!pem.includes('-----BEGIN PRIVATE KEY-----'))
    throw new Error('is not in PKCS#8 form (BEGIN PRIVATE KEY)');
  return pem;
}
