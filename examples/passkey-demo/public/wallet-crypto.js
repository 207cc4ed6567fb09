// The client side of paysvc's embedded-wallet wire formats with nothing but WebCrypto (conventions §5.3,
// §5.4): P-256 keys, the Turnkey API-key stamp, HPKE (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256),
// HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", AAD = enc ‖ recipient key, both uncompressed) and the
// base58check bundle of encryptedSessionSigningKey. An app would use @turnkey/crypto; this file shows
// the bytes.

const subtle = globalThis.crypto.subtle;
const te = new TextEncoder();

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const fromHex = (text) => new Uint8Array(text.match(/../g).map((h) => Number.parseInt(h, 16)));
export const b64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const fromB64url = (text) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
export const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};

// P-256 point compression (SEC 1 §2.3.3–2.3.4): WebCrypto speaks uncompressed points only.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
const toBig = (bytes) => BigInt(`0x${hex(bytes)}`);
const toBytes32 = (n) => fromHex(n.toString(16).padStart(64, "0"));
function modPow(base, exp, mod) {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}
export function compress(uncompressed) {
  const y = uncompressed[64];
  return concat(Uint8Array.of(y % 2 === 0 ? 2 : 3), uncompressed.slice(1, 33));
}
export function decompress(compressed) {
  const x = toBig(compressed.slice(1));
  const y2 = (((x * x * x - 3n * x + B) % P) + P) % P;
  let y = modPow(y2, (P + 1n) / 4n, P);
  if (Number(y & 1n) !== (compressed[0] & 1)) y = P - y;
  return concat(Uint8Array.of(4), toBytes32(x), toBytes32(y));
}

/** A P-256 signing key pair (the session key) and its compressed public key in hex. */
export async function newSigningKey() {
  const pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const raw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKeyHex: hex(compress(raw)) };
}

// P-256 scalar multiplication (affine double-and-add; only run once per sign-in, on a key we hold):
// WebCrypto imports a private key only together with its public point, which it does not compute.
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;
const mod = (a) => ((a % P) + P) % P;
const inverse = (a) => modPow(mod(a), P - 2n, P);
function add(p1, p2) {
  if (!p1) return p2;
  if (!p2) return p1;
  const [x1, y1] = p1;
  const [x2, y2] = p2;
  if (x1 === x2 && mod(y1 + y2) === 0n) return undefined;
  const slope = x1 === x2 ? mod((3n * x1 * x1 - 3n) * inverse(2n * y1)) : mod((y2 - y1) * inverse(x2 - x1));
  const x3 = mod(slope * slope - x1 - x2);
  return [x3, mod(slope * (x1 - x3) - y1)];
}
function multiply(k) {
  let result;
  let addend = [GX, GY];
  for (let n = k; n > 0n; n >>= 1n) {
    if (n & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  return result;
}

/** A session signing key from its 32-byte private scalar (what encryptedSessionSigningKey holds). */
export async function signingKeyFromScalar(scalar) {
  const [x, y] = multiply(toBig(scalar));
  const jwk = {
    kty: "EC",
    crv: "P-256",
    d: b64url(scalar),
    x: b64url(toBytes32(x)),
    y: b64url(toBytes32(y)),
  };
  const key = await subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  return {
    privateKey: key,
    publicKeyHex: hex(compress(concat(Uint8Array.of(4), toBytes32(x), toBytes32(y)))),
  };
}

/** DER of an ECDSA signature from WebCrypto's r ‖ s. */
function der(p1363) {
  const int = (bytes) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    return trimmed[0] & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed;
  };
  const r = int(p1363.slice(0, 32));
  const s = int(p1363.slice(32));
  const body = concat(Uint8Array.of(2, r.length), r, Uint8Array.of(2, s.length), s);
  return concat(Uint8Array.of(0x30, body.length), body);
}

/** The Service-Wallet-Signature header: the Turnkey API-key stamp of payloadToSign, byte for byte. */
export async function stamp(payloadToSign, key) {
  const signature = new Uint8Array(
    await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, te.encode(payloadToSign)),
  );
  const json = JSON.stringify({
    publicKey: key.publicKeyHex,
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: hex(der(signature)),
  });
  return b64url(te.encode(json));
}

// HPKE (RFC 9180) base mode, single-shot, sequence number 0.
const u16 = (n) => Uint8Array.of(n >> 8, n & 0xff);
const KEM_SUITE = concat(te.encode("KEM"), u16(0x0010));
const HPKE_SUITE = concat(te.encode("HPKE"), u16(0x0010), u16(0x0001), u16(0x0002));
const INFO = te.encode("turnkey_hpke");
async function hmac(key, data) {
  const k = await subtle.importKey(
    "raw",
    key.length ? key : new Uint8Array(32),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await subtle.sign("HMAC", k, data));
}
const labeledExtract = (suite, salt, label, ikm) =>
  hmac(salt, concat(te.encode("HPKE-v1"), suite, te.encode(label), ikm));
const labeledExpand = async (suite, prk, label, info, length) =>
  (
    await hmac(
      prk,
      concat(u16(length), te.encode("HPKE-v1"), suite, te.encode(label), info, Uint8Array.of(1)),
    )
  ).slice(0, length);
const none = new Uint8Array();

async function keySchedule(dh, enc, recipient) {
  const eaePrk = await labeledExtract(KEM_SUITE, none, "eae_prk", dh);
  const shared = await labeledExpand(KEM_SUITE, eaePrk, "shared_secret", concat(enc, recipient), 32);
  const context = concat(
    Uint8Array.of(0),
    await labeledExtract(HPKE_SUITE, none, "psk_id_hash", none),
    await labeledExtract(HPKE_SUITE, none, "info_hash", INFO),
  );
  const secret = await labeledExtract(HPKE_SUITE, shared, "secret", none);
  const key = await subtle.importKey(
    "raw",
    await labeledExpand(HPKE_SUITE, secret, "key", context, 32),
    "AES-GCM",
    false,
    ["encrypt", "decrypt"],
  );
  return { key, iv: await labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12) };
}

const ecdh = { name: "ECDH", namedCurve: "P-256" };
const dhWith = async (privateKey, publicRaw) =>
  new Uint8Array(
    await subtle.deriveBits(
      { name: "ECDH", public: await subtle.importKey("raw", publicRaw, ecdh, false, []) },
      privateKey,
      256,
    ),
  );

/** Seals `plaintext` to an uncompressed P-256 key; returns the encapsulated key and ciphertext (tag included). */
export async function hpkeSeal(recipient, plaintext) {
  const ephemeral = await subtle.generateKey(ecdh, false, ["deriveBits"]);
  const enc = new Uint8Array(await subtle.exportKey("raw", ephemeral.publicKey));
  const { key, iv } = await keySchedule(await dhWith(ephemeral.privateKey, recipient), enc, recipient);
  const ciphertext = await subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: concat(enc, recipient) },
    key,
    plaintext,
  );
  return { enc, ciphertext: new Uint8Array(ciphertext) };
}

/** A client key pair that HPKE bundles are sealed to: `publicKeyHex` (uncompressed) goes to paysvc. */
export async function newClientKey() {
  const pair = await subtle.generateKey(ecdh, false, ["deriveBits"]);
  const raw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicRaw: raw, publicKeyHex: hex(raw) };
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
async function base58checkDecode(text) {
  let n = 0n;
  for (const c of text) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) throw new Error("not base58");
    n = n * 58n + BigInt(digit);
  }
  let body =
    n === 0n
      ? new Uint8Array()
      : fromHex(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, "0"));
  for (const c of text) {
    if (c !== "1") break;
    body = concat(Uint8Array.of(0), body);
  }
  const payload = body.slice(0, -4);
  const digest = new Uint8Array(await subtle.digest("SHA-256", await subtle.digest("SHA-256", payload)));
  if (hex(digest.slice(0, 4)) !== hex(body.slice(-4))) throw new Error("bad base58check checksum");
  return payload;
}

/** decryptCredentialBundle: the session's 32-byte private scalar from encryptedSessionSigningKey. */
export async function openSessionKey(bundle, clientKey) {
  const bytes = await base58checkDecode(bundle);
  const enc = decompress(bytes.slice(0, 33));
  const { key, iv } = await keySchedule(await dhWith(clientKey.privateKey, enc), enc, clientKey.publicRaw);
  const plain = await subtle.decrypt(
    { name: "AES-GCM", iv, additionalData: concat(enc, clientKey.publicRaw) },
    key,
    bytes.slice(33),
  );
  return new Uint8Array(plain);
}
