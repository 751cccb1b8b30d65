import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
} from '@keycard/contract';

/**
 * A software WebAuthn authenticator for tests: a P-256 key made with node:crypto, real
 * authenticator data (RP ID hash, flags, counter, attested credential data with a COSE key),
 * clientDataJSON and an ES256 signature, attestation 'none' or packed self attestation, all
 * CBOR-encoded here — nothing of the server's library is used to make what it verifies.
 * Every part can be bent (another origin, RP ID, counter, user handle, flags) to attack with.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[];

/** Minimal canonical CBOR (RFC 8949): unsigned and negative integers, bytes, text, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(length, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, inner] of value) parts.push(cbor(key), cbor(inner));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

export interface Bend {
  /** The origin the browser writes into clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The RP ID whose hash goes into the authenticator data (default: the options'). */
  rpIdForHash?: string;
  /** clientDataJSON's type (default webauthn.create / webauthn.get). */
  type?: string;
  /** The challenge to sign (default: the options'). */
  challenge?: string;
  /** User verified (default true). */
  userVerified?: boolean;
  /** Use this counter instead of the next one. */
  counter?: number;
  /** The user handle to answer (default: the one stored at creation). */
  userHandle?: string | undefined;
  /** Sign with this key instead (a forgery). */
  signWith?: KeyObject;
  /** A synced passkey's backup state now (default true): a new phone not yet backed up says false. */
  backedUp?: boolean;
}

interface AuthenticatorOptions {
  /** Synced (backup eligible and backed up), as a phone's passkey: amr swk. Else device-bound. */
  synced?: boolean;
  /** Starting counter; 0 never counts (most synced passkeys). */
  counter?: number;
  attestation?: 'none' | 'packed';
  aaguid?: Buffer;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly aaguid: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  counter: number;
  userHandle: string | undefined;

  readonly origin: string;
  readonly options: AuthenticatorOptions;

  constructor(origin: string, options: AuthenticatorOptions = {}) {
    this.origin = origin;
    this.options = options;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.counter = options.counter ?? 0;
    this.aaguid = options.aaguid ?? Buffer.alloc(16);
  }

  get id(): string {
    return b64(this.credentialId);
  }

  #flags(userVerified: boolean, attested: boolean, backedUp = true): number {
    let flags = 0x01; // user present
    if (userVerified) flags |= 0x04;
    if (this.options.synced) flags |= backedUp ? 0x08 | 0x10 : 0x08; // backup eligible, backed up
    if (attested) flags |= 0x40;
    return flags;
  }

  #nextCounter(bend: Bend): number {
    if (bend.counter !== undefined) return bend.counter;
    // A counting authenticator (one that started above 0) counts every use; 0 stays 0.
    if (this.counter > 0) this.counter += 1;
    return this.counter;
  }

  #cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(String(jwk.x), 'base64url')],
        [-3, Buffer.from(String(jwk.y), 'base64url')],
      ]),
    );
  }

  #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  #sign(data: Buffer, key: KeyObject = this.privateKey): Buffer {
    return createSign('SHA256').update(data).sign(key);
  }

  /** navigator.credentials.create: answers the attestation as PublicKeyCredential.toJSON(). */
  create(options: PasskeyCreationOptions, bend: Bend = {}): PasskeyAttestation {
    this.userHandle = options.user.id;
    const clientDataJSON = this.#clientData(
      bend.type ?? 'webauthn.create',
      bend.challenge ?? options.challenge,
      bend.origin ?? this.origin,
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(bend.rpIdForHash ?? options.rp.id),
      Buffer.from([this.#flags(bend.userVerified ?? true, true)]),
      counter,
      this.aaguid,
      idLength,
      this.credentialId,
      this.#cosePublicKey(),
    ]);
    const attStmt =
      this.options.attestation === 'packed'
        ? new Map<Cbor, Cbor>([
            ['alg', -7],
            ['sig', this.#sign(Buffer.concat([authData, sha256(clientDataJSON)]), bend.signWith)],
          ])
        : new Map<Cbor, Cbor>();
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', this.options.attestation ?? 'none'],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: this.options.synced ? ['hybrid', 'internal'] : ['usb'],
      },
      authenticatorAttachment: this.options.synced ? 'platform' : 'cross-platform',
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /** navigator.credentials.get: answers the assertion as PublicKeyCredential.toJSON(). */
  get(options: Pick<PasskeyRequestOptions, 'challenge' | 'rpId'>, bend: Bend = {}): PasskeyAssertion {
    const clientDataJSON = this.#clientData(
      bend.type ?? 'webauthn.get',
      bend.challenge ?? options.challenge,
      bend.origin ?? this.origin,
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#nextCounter(bend));
    const authData = Buffer.concat([
      sha256(bend.rpIdForHash ?? options.rpId),
      Buffer.from([this.#flags(bend.userVerified ?? true, false, bend.backedUp)]),
      counter,
    ]);
    const signature = this.#sign(Buffer.concat([authData, sha256(clientDataJSON)]), bend.signWith);
    const userHandle = 'userHandle' in bend ? bend.userHandle : this.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
      authenticatorAttachment: this.options.synced ? 'platform' : 'cross-platform',
      clientExtensionResults: {},
    };
  }
}
