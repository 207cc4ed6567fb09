import { randomBytes } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import { hpkeSeal } from "../core/hpke.js";
import type { Caller } from "../core/http/context.js";
import { secretsOf } from "../core/secrets/process-box.js";
import type { SecretBox } from "../core/secrets/secret-box.js";
import { findWalletAccount } from "./account-store.js";
import { walletProcessingDelayMs } from "./auth-config.js";
import { signedBundle } from "./bundle-signing.js";
import { isActiveSessionKey } from "./sessions.js";
import { type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import type { SignedRequestRow } from "./signed-requests.js";
import type { Performer, SignedResponse } from "./signed-retry.js";
import { signedRetry } from "./signed-retry.js";
import { checkProvisioned, walletAccountOrThrow } from "./wallet-account.js";

export interface ExportBody {
  clientPublicKey: string;
}

/**
 * `POST /internal-accounts/{id}/export` (conventions §5.2): a signed retry (`EXPORT_WALLET`) signed by an
 * active session of the account, answering `200 {id, encryptedWalletCredentials}`. The bundle is made
 * by the performer on each answer and never stored (interface "Handling a still-processing response" 4).
 */
export async function exportWallet(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  body: ExportBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  // The schema admits only `04` + 128 hex; a string of that shape may still be off the curve.
  try {
    p256.Point.fromHex(body.clientPublicKey.toLowerCase()).assertValidity();
  } catch {
    throw invalidField("clientPublicKey", "is not a point of the P-256 curve");
  }
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const account = await walletAccountOrThrow(tx, caller, rawAccountId);
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: account.id,
        action: "EXPORT_WALLET",
        body,
        now,
        allowedSigner: (key) => isActiveSessionKey(tx, [account.id], key, now),
        processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
      }),
    );
  });
}

const readSeed = async (tx: Tx, accountId: string) =>
  (
    await tx.query<{ entropy: string }>("SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1", [
      accountId,
    ])
  )[0];

/**
 * The wallet's BIP-39 entropy (32 bytes: a 24-word mnemonic), made on first need, i.e. at the first
 * export (docs/decisions.md "Embedded wallet authentication"), and kept sealed under the master key with
 * the account id (docs/decisions.md "Security (issue 16)"). Concurrent first exports keep one seed.
 */
export async function walletEntropy(
  tx: Tx,
  secrets: SecretBox,
  accountId: string,
  now: Date,
): Promise<Uint8Array> {
  let row = await readSeed(tx, accountId);
  if (!row) {
    const entropy = randomBytes(32);
    const sealed = await secrets.seal("wallet-seed", accountId, entropy);
    entropy.fill(0);
    await tx.query(
      `INSERT INTO embedded_wallet_seeds (account_id, entropy, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO NOTHING`,
      [accountId, sealed, now],
    );
    row = await readSeed(tx, accountId);
  }
  if (!row) throw new Error(`embedded wallet ${accountId} has no seed after its insert`);
  return secrets.open("wallet-seed", accountId, row.entropy);
}

/**
 * The `encryptedWalletCredentials` bundle (conventions §5.4): the 24-word English mnemonic sealed with HPKE
 * to `clientPublicKey`, inside a `data` signed with the platform's bundle-signing key, in the layout
 * `@turnkey/crypto` `decryptExportBundle` reads (`organizationId` = the account id).
 */
export async function exportBundle(
  tx: Tx,
  secrets: SecretBox,
  platformId: string,
  accountId: string,
  clientPublicKey: string,
  now: Date,
): Promise<string> {
  const entropy = await walletEntropy(tx, secrets, accountId, now);
  const mnemonic = new TextEncoder().encode(entropyToMnemonic(entropy, wordlist));
  entropy.fill(0);
  const { enc, ciphertext } = await hpkeSeal(Buffer.from(clientPublicKey, "hex"), mnemonic, "turnkey_hpke");
  mnemonic.fill(0);
  return signedBundle(tx, secrets, platformId, {
    encappedPublic: Buffer.from(enc).toString("hex"),
    ciphertext: Buffer.from(ciphertext).toString("hex"),
    organizationId: accountId,
  });
}

const refused = (why: string) =>
  new ApiError("WALLET_SIGNATURE_INVALID", { reason: `The signed retry is refused: ${why}.` });

/**
 * Runs on the signed retry, on every identical re-send (the bundle is never kept, so it is made again),
 * and once by the reconciler. A re-send after `expiresAt`, or once the signing session has ended, gets no
 * bundle: a fresh export must start (interface "Handling a still-processing response" 4). Refusals settle
 * the operation (settlingErrors), so the reconciler does not retry it.
 */
async function performExport(
  tx: Tx,
  deps: Deps,
  request: SignedRequestRow,
  signer: string,
  now: Date,
): Promise<SignedResponse> {
  if (now.getTime() > request.expires_at.getTime())
    throw refused("the export challenge expired; start a new export");
  if (!(await isActiveSessionKey(tx, [request.account_id], signer, now)))
    throw refused("the signing session is no longer active; start a new export");
  const account = await findWalletAccount(tx, request.platform_id, request.account_id);
  if (!account) throw new Error(`signed request ${request.id} names a missing account`);
  checkProvisioned(account);
  const { clientPublicKey } = request.context.body as ExportBody;
  const encryptedWalletCredentials = await exportBundle(
    tx,
    secretsOf(deps),
    request.platform_id,
    account.id,
    clientPublicKey,
    now,
  );
  return { status: 200, body: { id: account.id, encryptedWalletCredentials } };
}

/** `EXPORT_WALLET`; its refusals settle the operation, so the reconciler does not retry it. */
export const performExportWallet: Performer = settlingErrors(performExport);
