import { createHash, randomBytes } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";

// A software WebAuthn authenticator for tests: a real P-256 credential producing the bytes a browser
// would send (CBOR attestation object with `none` attestation, authenticator data, clientDataJSON,
// DER ECDSA signatures), so that @simplewebauthn/server verifies them for real. Every field can be
// bent per call to exercise one failed check at a time.

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function cborHead(major: number, length: number): Uint8Array {
  if (length < 24) return Uint8Array.of((major << 5) | length);
  if (length < 0x100) return Uint8Array.of((major << 5) | 24, length);
  if (length < 0x10000) return Uint8Array.of((major << 5) | 25, length >> 8, length & 0xff);
  const b = new Uint8Array(5);
  b[0] = (major << 5) | 26;
  new DataView(b.buffer).setUint32(1, length);
  return b;
}

/** A minimal CBOR encoder (RFC 8949): integers, byte and text strings, arrays and maps, as WebAuthn needs. */
export function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    return concat(cborHead(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(cborHead(2, value.length), value);
  if (Array.isArray(value)) return concat(cborHead(4, value.length), ...value.map(cbor));
  const parts: Uint8Array[] = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return concat(...parts);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
export const b64url = (data: Uint8Array | string) =>
  (typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data)).toString("base64url");

/** Authenticator data flags (WebAuthn §6.1). */
export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
export const FLAG_AT = 0x40;

export interface Ceremony {
  rpId?: string;
  origin?: string;
  /** clientDataJSON `type`. */
  type?: string;
  flags?: number;
  /** The sign counter to report (default: the authenticator's next value). */
  counter?: number;
  /** Replaces clientDataJSON's `challenge` (base64url) after it is computed. */
  challengeOverride?: string;
  /** Extra clientDataJSON members (crossOrigin, topOrigin…). */
  clientDataExtra?: Record<string, unknown>;
}

export interface Attestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

export interface Assertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(32));
  readonly secretKey = p256.utils.randomSecretKey();
  readonly userHandle = new Uint8Array(randomBytes(16));
  /** Increments before each assertion; a `counterStep` of 0 models an authenticator without a counter. */
  counter = 0;

  constructor(
    readonly defaults: { rpId: string; origin: string; counterStep?: number } = {
      rpId: "localhost",
      origin: "http://localhost:5173",
    },
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key (RFC 9053) of the credential: EC2, ES256, P-256, x, y. */
  coseKey(): Uint8Array {
    const point = p256.getPublicKey(this.secretKey, false);
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, point.slice(1, 33)],
        [-3, point.slice(33, 65)],
      ]),
    );
  }

  private clientData(type: string, challenge: string, c: Ceremony): string {
    return JSON.stringify({
      type: c.type ?? type,
      challenge: c.challengeOverride ?? challenge,
      origin: c.origin ?? this.defaults.origin,
      crossOrigin: false,
      ...c.clientDataExtra,
    });
  }

  private authData(c: Ceremony, flags: number, counter: number, attested?: Uint8Array): Uint8Array {
    const counterBytes = new Uint8Array(4);
    new DataView(counterBytes.buffer).setUint32(0, counter);
    return concat(
      sha256(c.rpId ?? this.defaults.rpId),
      Uint8Array.of(c.flags ?? flags),
      counterBytes,
      attested ?? new Uint8Array(),
    );
  }

  /** navigator.credentials.create with `attestation: "none"`: the registration's `attestation` body field. */
  register(challengeBase64url: string, c: Ceremony = {}): Attestation {
    const idLength = Uint8Array.of(this.credentialId.length >> 8, this.credentialId.length & 0xff);
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, this.coseKey());
    const authData = this.authData(c, FLAG_UP | FLAG_UV | FLAG_AT, c.counter ?? 0, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      credentialId: this.id,
      clientDataJson: b64url(this.clientData("webauthn.create", challengeBase64url, c)),
      attestationObject: b64url(attestationObject),
      transports: ["internal"],
    };
  }

  /** navigator.credentials.get over a paysvc challenge (its hex string UTF-8 encoded, conventions §5.6). */
  assert(challenge: string, c: Ceremony = {}): Assertion {
    const step = this.defaults.counterStep ?? 1;
    if (c.counter === undefined) this.counter += step;
    const counter = c.counter ?? this.counter;
    const authData = this.authData(c, FLAG_UP | FLAG_UV, counter);
    const clientDataJson = this.clientData("webauthn.get", b64url(challenge), c);
    const signature = p256.sign(concat(authData, sha256(clientDataJson)), this.secretKey, {
      format: "der",
    });
    return {
      credentialId: this.id,
      clientDataJson: b64url(clientDataJson),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: b64url(this.userHandle),
    };
  }
}
