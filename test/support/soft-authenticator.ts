// A WebAuthn authenticator in software, written from the WebAuthn Level 3 specification for the HTTP tests and the
// bench (the browser tests use Chromium's own virtual authenticator): ES256 keys on node:crypto, discoverable
// credentials, user verification, a signature counter, `none` attestation, and a CBOR encoder of its own.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor =
  number | string | Uint8Array | readonly Cbor[] | Map<Cbor, Cbor> | { readonly [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** RFC 8949, the subset WebAuthn's attestation objects and COSE keys use. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map((v: Cbor) => cbor(v))]);
  const entries: [Cbor, Cbor][] =
    value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, Cbor>);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  readonly id: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly rpId: string;
  readonly userHandle: string;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** Keep a signature counter (true) or always send 0, as many platform authenticators do. */
  readonly counter?: boolean;
  /** Say the keys may be backed up (a synced passkey). */
  readonly backupEligible?: boolean;
  /** Report user verification (the PIN or biometrics were checked). */
  readonly userVerified?: boolean;
}

/** Options as the service sends them (WebAuthn's JSON form), the parts an authenticator reads. */
interface CreationOptionsJson {
  challenge: string;
  rp: { id: string };
  user: { id: string; name: string };
}
interface RequestOptionsJson {
  challenge: string;
  rpId: string;
}

/** One authenticator with its discoverable credentials, answering for `origin`. */
export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    private readonly origin: string,
    private readonly options: SoftAuthenticatorOptions = {},
  ) {}

  private flags(extra = 0): number {
    let flags = FLAG_UP | extra;
    if (this.options.userVerified !== false) flags |= FLAG_UV;
    if (this.options.backupEligible) flags |= FLAG_BE;
    return flags;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }), 'utf8');
  }

  /** `navigator.credentials.create()`: a new credential for the options' user, in WebAuthn's JSON form. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  register(options: any): Record<string, unknown> {
    const o = options as CreationOptionsJson;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(32);
    const credential: Credential = {
      id,
      privateKey,
      publicKey,
      rpId: o.rp.id,
      userHandle: o.user.id,
      counter: 0,
    };
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(o.rp.id),
      Buffer.from([this.flags(FLAG_AT)]),
      this.counterBytes(credential),
      Buffer.alloc(16), // AAGUID: none
      length,
      id,
      cose,
    ]);
    this.credentials.push(credential);
    const clientDataJSON = this.clientData('webauthn.create', o.challenge);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * `navigator.credentials.get()` with no credential named (discoverable): the assertion of `which` credential of the
   * options' relying party (the first by default), with its user handle.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  signIn(options: any, which = 0): Record<string, unknown> {
    const o = options as RequestOptionsJson;
    const credential = this.credentials.filter((c) => c.rpId === o.rpId)[which];
    if (!credential) throw new Error(`no credential for ${o.rpId}`);
    return this.assert(credential, o.challenge);
  }

  /** An assertion by `credential` of `challenge`, as an authenticator would make it. */
  assert(
    credential: Credential,
    challenge: string,
    userHandle = credential.userHandle,
  ): Record<string, unknown> {
    const authData = Buffer.concat([
      sha256(credential.rpId),
      Buffer.from([this.flags()]),
      this.counterBytes(credential),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private counterBytes(credential: Credential): Buffer {
    if (this.options.counter !== false) credential.counter++;
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.options.counter === false ? 0 : credential.counter);
    return bytes;
  }
}
