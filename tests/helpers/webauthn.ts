// A software passkey authenticator for tests without a browser: P-256 keys, "none" attestation, user presence and
// verification set, a signature counter. It answers the server's options as a browser with such a passkey would
// (the JSON of @simplewebauthn/browser); real Chromium's virtual authenticator is used in tests/e2e.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** The CBOR the authenticator data and attestation object need (integers, strings, bytes, arrays, maps). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64url');

type Credential = { id: Buffer; key: KeyObject; userHandle: string; counter: number; rpId: string };

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(
    readonly origin: string,
    readonly opts: { backedUp?: boolean; userVerified?: boolean } = {},
  ) {}

  private flags(extra: number): number {
    const uv = this.opts.userVerified === false ? 0 : 0x04;
    const backup = this.opts.backedUp === false ? 0 : 0x08 | 0x10;
    return 0x01 | uv | backup | extra;
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers registration options (PublicKeyCredentialCreationOptionsJSON) with a new credential. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
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
    const idLength = Buffer.from([id.length >> 8, id.length & 0xff]);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(0x40)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      id,
      cose,
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, key: privateKey, userHandle: options.user.id, counter: 0, rpId });
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** Answers authentication options with the given credential (default: the last one made). */
  assert(options: { challenge: string; rpId?: string }, credential = this.credentials.at(-1)!) {
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([this.flags(0)]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
