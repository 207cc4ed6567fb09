import { randomBytes } from "node:crypto";
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { customerNames } from "../customers/store.js";
import { findCardOrThrow } from "./issue.js";
import type { TokenizeCardBody, TokenizeCardResult } from "./management-schemas.js";
import { sandboxPan } from "./pan.js";

// HPKE base mode with the §5.4 suite: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});
/** HPKE `info` of pass data: its own label, so a wallet key's ciphertexts cannot be replayed across protocols. */
export const TOKENIZATION_HPKE_INFO = "paysvc_card_tokenization_v1";

type PublicKey = Awaited<ReturnType<typeof suite.kem.deserializePublicKey>>;

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The wallet key as a P-256 point; anything else is `400 INVALID_INPUT` on walletPublicKey. */
async function walletKey(hex: string): Promise<{ key: PublicKey; raw: Buffer }> {
  const raw = Buffer.from(hex, "hex");
  try {
    return { key: await suite.kem.deserializePublicKey(arrayBuffer(raw)), raw };
  } catch {
    throw invalidField("walletPublicKey", "is not a P-256 public key (the point is not on the curve)");
  }
}

/**
 * `POST /cards/{id}/tokenize`: the sandbox issuer's push-provisioning payload for a digital wallet. The
 * card must support tokenization (the platform had a `cardTokenization2faConfig` when it was issued) and
 * be ACTIVE, else `409 CONFLICT`. `encryptedPassData` is HPKE sealed to `walletPublicKey` with AAD =
 * encapsulated key ‖ wallet key (both uncompressed, as §5.4), over the JSON
 * `{pan, expMonth, expYear, cardholderName?}`; the PAN leaves paysvc only in that ciphertext.
 */
export async function tokenizeCard(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: TokenizeCardBody,
): Promise<TokenizeCardResult> {
  const wallet = await walletKey(body.walletPublicKey);
  const card = await findCardOrThrow(deps.db, caller, rawId);
  if (!card.supports_digital_wallet_tokenization) {
    throw new ApiError("CONFLICT", {
      reason: `Card ${card.id} does not support digital wallet tokenization (cardCapabilities).`,
    });
  }
  if (card.status !== "ACTIVE") {
    throw new ApiError("CONFLICT", {
      reason: `Card ${card.id} is ${card.status}; only ACTIVE cards can be added to a wallet.`,
    });
  }
  const cardholderName = (await customerNames(deps.db, [card.cardholder_id])).get(card.cardholder_id);
  const passData = {
    pan: sandboxPan(card.id),
    expMonth: card.exp_month,
    expYear: card.exp_year,
    ...(cardholderName ? { cardholderName } : {}),
  };
  const sender = await suite.createSenderContext({
    recipientPublicKey: wallet.key,
    info: arrayBuffer(new TextEncoder().encode(TOKENIZATION_HPKE_INFO)),
  });
  const enc = Buffer.from(sender.enc);
  const ciphertext = await sender.seal(
    arrayBuffer(new TextEncoder().encode(JSON.stringify(passData))),
    arrayBuffer(Buffer.concat([enc, wallet.raw])),
  );
  return {
    walletProvider: body.walletProvider,
    // The sandbox issuer's activation proof is random: no wallet checks it against anything.
    activationData: randomBytes(32).toString("base64"),
    encryptedPassData: Buffer.from(ciphertext).toString("hex"),
    ephemeralPublicKey: enc.toString("hex"),
  };
}
