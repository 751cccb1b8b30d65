import type { PublicJwk } from './device-jwt.ts';

/** What the app keeps after enrolment. The CryptoKey is stored as such: IndexedDB clones it without exporting it. */
export interface Pairing {
  /** The tenant's GraphQL URL from the enrolment URI; also the `aud` of every proof. */
  endpoint: string;
  tenant: string;
  tenantName: string;
  account: string;
  deviceId: string;
  deviceName: string;
  privateKey: CryptoKey;
  publicJwk: PublicJwk;
  pairedAt: number;
}

const databaseName = 'keycard-device';
const storeName = 'pairing';
/** One primary device per account, and this app plays one device: one pairing, under one key. */
const pairingKey = 'primary';

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(databaseName, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const database = await openDatabase();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = database.transaction(storeName, mode);
      const request = run(transaction.objectStore(storeName));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

export async function loadPairing(): Promise<Pairing | null> {
  const pairing = await withStore<Pairing | undefined>('readonly', (store) => store.get(pairingKey));
  return pairing ?? null;
}

export async function savePairing(pairing: Pairing): Promise<void> {
  await withStore('readwrite', (store) => store.put(pairing, pairingKey));
}

export async function forgetPairing(): Promise<void> {
  await withStore('readwrite', (store) => store.delete(pairingKey));
}
