// @peculiar/x509 resolves its parts with tsyringe, which needs the Reflect metadata polyfill loaded first.
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

// UMA VASPs publish their secp256k1 keys in X.509 chains (`/.well-known/lnurlpubkey`). WebCrypto cannot
// sign with secp256k1, so each chain is a leaf certifying the secp256k1 key, signed by a P-256 root made
// for it and thrown away once it signed: the chain proves nothing beyond the key, as a self-signed one
// would, and no CA private key is kept anywhere (docs/decisions.md "UMA").

x509.cryptoProvider.set(webcrypto as never);

/** DER prefix of a SubjectPublicKeyInfo for an uncompressed secp256k1 point (id-ecPublicKey, secp256k1). */
const SECP256K1_SPKI_PREFIX = Buffer.from("3056301006072a8648ce3d020106052b8104000a034200", "hex");

const P256_ECDSA = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export interface ChainValidity {
  notBefore: Date;
  notAfter: Date;
}

/** A PEM chain (leaf, then root) for the uncompressed secp256k1 `publicKey` (65 bytes). */
export async function certificateChain(
  publicKey: Uint8Array,
  subject: string,
  validity: ChainValidity,
): Promise<string> {
  const root = (await webcrypto.subtle.generateKey(P256_ECDSA, true, [
    "sign",
    "verify",
  ])) as webcrypto.CryptoKeyPair;
  const rootName = `CN=${subject} UMA root`;
  const rootCertificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: rootName,
    ...validity,
    keys: root,
    signingAlgorithm: P256_ECDSA,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${subject}`,
    issuer: rootName,
    ...validity,
    publicKey: new x509.PublicKey(Buffer.concat([SECP256K1_SPKI_PREFIX, publicKey])),
    signingKey: root.privateKey,
    signingAlgorithm: P256_ECDSA,
  });
  return `${leaf.toString("pem")}\n${rootCertificate.toString("pem")}\n`;
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // a positive INTEGER
  return Buffer.from(bytes).toString("hex");
}
