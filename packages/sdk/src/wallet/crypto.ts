import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad, createBase58check } from "@scure/base";
import { WalletCryptoError } from "./errors.js";

// The client side of embedded wallet cryptography (conventions §5.3, §5.4), in the formats `@turnkey/crypto`
// and `@turnkey/api-key-stamper` use, with noble P-256/SHA-256 and @hpke/core (WebCrypto): Node ≥ 20 and
// browsers alike. Every hex output is lowercase.

/** A P-256 key pair in hex (the shape of `@turnkey/crypto`'s `generateP256KeyPair`). */
export interface WalletKeyPair {
  /** The 32-byte private scalar, 64 hex. Keep it on the client; never send it. */
  privateKey: string;
  /** Compressed (`02`/`03` + 64 hex): what stamps, OTP bundles, challenges and refreshes carry. */
  publicKey: string;
  /** Uncompressed (`04` + 128 hex): what an export takes. */
  publicKeyUncompressed: string;
}

/** Anything holding a private key in hex: a `WalletKeyPair`, or a session key you stored. */
export interface SigningKey {
  privateKey: string;
}

const HPKE_INFO = utf8ToBytes("turnkey_hpke");
const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";
const base58check = createBase58check(sha256);
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

/** A standalone ArrayBuffer copy (WebCrypto takes no views of shared or offset buffers). */
const buffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

function privateKeyBytes(privateKey: string | Uint8Array): Uint8Array {
  const bytes =
    typeof privateKey === "string" && /^[0-9a-fA-F]{64}$/.test(privateKey)
      ? hexToBytes(privateKey.toLowerCase())
      : privateKey instanceof Uint8Array
        ? privateKey
        : undefined;
  if (!bytes || !p256.utils.isValidSecretKey(bytes))
    throw new WalletCryptoError("PRIVATE_KEY", "The private key must be a P-256 private scalar, 64 hex.");
  return bytes;
}

function publicKeyBytes(publicKey: string, what = "The public key"): Uint8Array {
  try {
    if (!/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(publicKey)) throw new Error("not hex of a key");
    return p256.Point.fromHex(publicKey.toLowerCase()).toBytes(false);
  } catch (cause) {
    throw new WalletCryptoError("PUBLIC_KEY", `${what} is not a P-256 public key in hex.`, cause);
  }
}

/** A fresh P-256 key pair from the platform's secure random source. */
export function generateKeyPair(): WalletKeyPair {
  return keyPairFromPrivateKey(p256.utils.randomSecretKey());
}

/** The key pair of a private key (hex or bytes): e.g. a decrypted session signing key. */
export function keyPairFromPrivateKey(privateKey: string | Uint8Array): WalletKeyPair {
  const secret = privateKeyBytes(privateKey);
  return {
    privateKey: bytesToHex(secret),
    publicKey: bytesToHex(p256.getPublicKey(secret, true)),
    publicKeyUncompressed: bytesToHex(p256.getPublicKey(secret, false)),
  };
}

/**
 * The `Service-Wallet-Signature` value for `payloadToSign` (conventions §5.3): base64url without padding of
 * the JSON `{"publicKey","scheme","signature"}`, the signature a DER ECDSA P-256 over SHA-256 of the exact
 * UTF-8 bytes of the payload. Byte for byte what `@turnkey/api-key-stamper` produces.
 */
export function stamp(payloadToSign: string, privateKey: string | Uint8Array): string {
  if (typeof payloadToSign !== "string" || payloadToSign === "")
    throw new TypeError("payloadToSign must be the non-empty string the 202 returned.");
  const secret = privateKeyBytes(privateKey);
  const signature = p256.sign(utf8ToBytes(payloadToSign), secret, { format: "der" });
  const json = JSON.stringify({
    publicKey: bytesToHex(p256.getPublicKey(secret, true)),
    scheme: STAMP_SCHEME,
    signature: bytesToHex(signature),
  });
  return base64urlnopad.encode(utf8ToBytes(json));
}

/**
 * The OIDC `nonce` a verify needs (conventions §5.7): lowercase hex SHA-256 of the ASCII bytes of the
 * `clientPublicKey` string exactly as it will be sent (the hex text, not the decoded key).
 */
export function oidcNonce(clientPublicKey: string): string {
  return bytesToHex(sha256(utf8ToBytes(clientPublicKey)));
}

/** RFC 9180 base-mode seal with AAD = enc ‖ recipient key, both uncompressed (conventions §5.4). */
async function hpkeSeal(recipientPublicKey: Uint8Array, plaintext: Uint8Array) {
  const recipient = p256.Point.fromBytes(recipientPublicKey).toBytes(false);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(buffer(recipient)),
    info: buffer(HPKE_INFO),
  });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(
    await sender.seal(buffer(plaintext), buffer(concatBytes(enc, recipient))),
  );
  return { enc, ciphertext };
}

/** Opens what the service sealed to `privateKey`; `enc` may be compressed or uncompressed. */
async function hpkeOpen(
  privateKey: Uint8Array,
  enc: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  try {
    const encUncompressed = p256.Point.fromBytes(enc).toBytes(false);
    const recipient = p256.getPublicKey(privateKey, false);
    const context = await suite.createRecipientContext({
      recipientKey: await suite.kem.deserializePrivateKey(buffer(privateKey)),
      enc: buffer(encUncompressed),
      info: buffer(HPKE_INFO),
    });
    return new Uint8Array(
      await context.open(buffer(ciphertext), buffer(concatBytes(encUncompressed, recipient))),
    );
  } catch (cause) {
    throw new WalletCryptoError(
      "DECRYPT",
      "The bundle does not decrypt with this private key (HPKE, info turnkey_hpke).",
      cause,
    );
  }
}

/** A `{version, data, dataSignature, enclaveQuorumPublic}` bundle (conventions §5.4). */
interface SignedBundle {
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
}

function hexField(value: unknown, name: string): string {
  if (typeof value !== "string" || !/^(?:[0-9a-fA-F]{2})+$/.test(value))
    throw new WalletCryptoError("BUNDLE_FORMAT", `The bundle's ${name} must be hex.`);
  return value.toLowerCase();
}

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new WalletCryptoError("BUNDLE_FORMAT", `${what} is not JSON text.`, cause);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new WalletCryptoError("BUNDLE_FORMAT", `${what} is not a JSON object.`);
  return parsed as Record<string, unknown>;
}

/**
 * The signed data of a bundle. With `bundleSigningPublicKey` (the platform's `GET /config` value) the bundle
 * must name that key as `enclaveQuorumPublic` and its `dataSignature` must verify under it, as
 * `@turnkey/crypto` does with `dangerouslyOverrideSignerPublicKey`.
 */
function signedData(text: string, what: string, bundleSigningPublicKey: string | undefined) {
  const bundle = parseJsonObject(text, what);
  const parsed: SignedBundle = {
    data: hexField(bundle.data, "data"),
    dataSignature: hexField(bundle.dataSignature, "dataSignature"),
    enclaveQuorumPublic: hexField(bundle.enclaveQuorumPublic, "enclaveQuorumPublic"),
  };
  const data = hexToBytes(parsed.data);
  if (bundleSigningPublicKey !== undefined) {
    const signer = publicKeyBytes(bundleSigningPublicKey, "bundleSigningPublicKey");
    if (bytesToHex(publicKeyBytes(parsed.enclaveQuorumPublic, "enclaveQuorumPublic")) !== bytesToHex(signer))
      throw new WalletCryptoError(
        "BUNDLE_SIGNER",
        `${what} is signed by another key than the platform's bundleSigningPublicKey.`,
      );
    let verified = false;
    try {
      verified = p256.verify(hexToBytes(parsed.dataSignature), data, signer, { format: "der", lowS: false });
    } catch {
      verified = false;
    }
    if (!verified)
      throw new WalletCryptoError(
        "BUNDLE_SIGNATURE",
        `${what}'s dataSignature does not verify under bundleSigningPublicKey.`,
      );
  }
  let dataText: string;
  try {
    dataText = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch (cause) {
    throw new WalletCryptoError("BUNDLE_FORMAT", `${what}'s data is not UTF-8.`, cause);
  }
  return parseJsonObject(dataText, `${what}'s data`);
}

export interface EncryptOtpBundleInput {
  /** The code the user received (sandbox: `000000`). */
  otpCode: string;
  /** The AuthMethod's `otpEncryptionTargetBundle` from a challenge or the OTP registration response. */
  otpEncryptionTargetBundle: string;
  /** The TEK's public key, compressed (02/03…): the session key once verified (conventions §5.5). */
  clientPublicKey: string;
  /** The platform's `GET /config` `bundleSigningPublicKey`: when given, the bundle's signature is checked. */
  bundleSigningPublicKey?: string;
  /** When given, the bundle must be for this account (`organizationId`)… */
  accountId?: string;
  /** … and this credential (`userId`). */
  authMethodId?: string;
}

/**
 * `encryptedOtpBundle` (conventions §5.4): HPKE of `{"otp_code","public_key"}` to the bundle's `targetPublic`,
 * as JSON text `{"encappedPublic","ciphertext"}` (what `encryptOtpCodeToBundle` of `@turnkey/crypto` makes).
 */
export async function encryptOtpBundle(input: EncryptOtpBundleInput): Promise<string> {
  if (typeof input.otpCode !== "string" || input.otpCode === "")
    throw new TypeError("otpCode must be the non-empty code the user received.");
  publicKeyBytes(input.clientPublicKey, "clientPublicKey");
  const data = signedData(
    input.otpEncryptionTargetBundle,
    "otpEncryptionTargetBundle",
    input.bundleSigningPublicKey,
  );
  if (input.accountId !== undefined && data.organizationId !== input.accountId)
    throw new WalletCryptoError(
      "BUNDLE_ACCOUNT",
      `The otpEncryptionTargetBundle is for ${String(data.organizationId)}, not ${input.accountId}.`,
    );
  if (input.authMethodId !== undefined && data.userId !== input.authMethodId)
    throw new WalletCryptoError(
      "BUNDLE_ACCOUNT",
      `The otpEncryptionTargetBundle is for credential ${String(data.userId)}, not ${input.authMethodId}.`,
    );
  if (typeof data.targetPublic !== "string")
    throw new WalletCryptoError("BUNDLE_FORMAT", "The otpEncryptionTargetBundle's data has no targetPublic.");
  const target = publicKeyBytes(data.targetPublic, "targetPublic");
  const plaintext = utf8ToBytes(
    JSON.stringify({ otp_code: input.otpCode, public_key: input.clientPublicKey }),
  );
  const { enc, ciphertext } = await hpkeSeal(target, plaintext);
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
}

/**
 * The session private key (64 hex) in an OAUTH or PASSKEY verify's `encryptedSessionSigningKey`
 * (conventions §5.4): base58check → compressed encapsulated key (33 bytes) ‖ ciphertext → HPKE open with
 * the client private key. What `decryptCredentialBundle` of `@turnkey/crypto` returns.
 */
export async function decryptSessionSigningKey(
  encryptedSessionSigningKey: string,
  clientPrivateKey: string | Uint8Array,
): Promise<string> {
  const secret = privateKeyBytes(clientPrivateKey);
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(encryptedSessionSigningKey);
  } catch (cause) {
    throw new WalletCryptoError("BUNDLE_FORMAT", "encryptedSessionSigningKey is not base58check.", cause);
  }
  if (bytes.length <= 33)
    throw new WalletCryptoError("BUNDLE_FORMAT", "encryptedSessionSigningKey is too short.");
  const plaintext = await hpkeOpen(secret, bytes.slice(0, 33), bytes.slice(33));
  try {
    return keyPairFromPrivateKey(plaintext).privateKey;
  } catch (cause) {
    throw new WalletCryptoError(
      "DECRYPT",
      "encryptedSessionSigningKey does not hold a P-256 private key.",
      cause,
    );
  } finally {
    plaintext.fill(0);
  }
}

export interface DecryptExportBundleInput {
  /** The private key whose uncompressed public key the export named (fresh per export). */
  clientPrivateKey: string | Uint8Array;
  /** The exported InternalAccount: the bundle's `organizationId` must be this. */
  accountId: string;
  /** The platform's `GET /config` `bundleSigningPublicKey`: the bundle must be signed by it. */
  bundleSigningPublicKey: string;
}

/**
 * The wallet's mnemonic in an export's `encryptedWalletCredentials` (conventions §5.4): the `dataSignature`
 * is checked with `bundleSigningPublicKey`, `organizationId` must be `accountId`, then the HPKE ciphertext is
 * opened with the client private key. What `decryptExportBundle({…, returnMnemonic: true})` returns.
 */
export async function decryptExportBundle(
  encryptedWalletCredentials: string,
  input: DecryptExportBundleInput,
): Promise<string> {
  const secret = privateKeyBytes(input.clientPrivateKey);
  if (typeof input.bundleSigningPublicKey !== "string")
    throw new TypeError("bundleSigningPublicKey is required to check the export bundle.");
  const data = signedData(
    encryptedWalletCredentials,
    "encryptedWalletCredentials",
    input.bundleSigningPublicKey,
  );
  if (data.organizationId !== input.accountId)
    throw new WalletCryptoError(
      "BUNDLE_ACCOUNT",
      `The export bundle is for ${String(data.organizationId)}, not ${input.accountId}.`,
    );
  const enc = publicKeyBytes(String(data.encappedPublic), "encappedPublic");
  const plaintext = await hpkeOpen(secret, enc, hexToBytes(hexField(data.ciphertext, "ciphertext")));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch (cause) {
    throw new WalletCryptoError("DECRYPT", "The export bundle does not hold UTF-8 text.", cause);
  } finally {
    plaintext.fill(0);
  }
}
