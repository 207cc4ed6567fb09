import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { p256 } from "@noble/curves/nist.js";

// RFC 9180 base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-256-GCM (conventions §5.4), the
// suite `@turnkey/crypto` uses; AAD = encapsulated key ‖ recipient key, both uncompressed.
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** A P-256 public key in uncompressed form (65 bytes); accepts compressed or uncompressed input. */
export function uncompressedP256(publicKey: Uint8Array): Uint8Array {
  return p256.Point.fromBytes(publicKey).toBytes(false);
}

/** Seals `plaintext` to a P-256 public key; returns the encapsulated key (65 bytes) and the ciphertext. */
export async function hpkeSeal(
  recipientPublicKey: Uint8Array,
  plaintext: Uint8Array,
  info: string,
): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }> {
  const recipient = uncompressedP256(recipientPublicKey);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(buffer(recipient)),
    info: buffer(new TextEncoder().encode(info)),
  });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = await sender.seal(buffer(plaintext), buffer(new Uint8Array([...enc, ...recipient])));
  return { enc, ciphertext: new Uint8Array(ciphertext) };
}

/** Opens what `hpkeSeal` (or `@turnkey/crypto`'s hpkeEncrypt) sealed to this private key; throws if it fails. */
export async function hpkeOpen(
  recipientPrivateKey: Uint8Array,
  enc: Uint8Array,
  ciphertext: Uint8Array,
  info: string,
): Promise<Uint8Array> {
  const recipient = p256.getPublicKey(recipientPrivateKey, false);
  const context = await suite.createRecipientContext({
    recipientKey: await suite.kem.deserializePrivateKey(buffer(recipientPrivateKey)),
    enc: buffer(uncompressedP256(enc)),
    info: buffer(new TextEncoder().encode(info)),
  });
  const aad = new Uint8Array([...uncompressedP256(enc), ...recipient]);
  return new Uint8Array(await context.open(buffer(ciphertext), buffer(aad)));
}
