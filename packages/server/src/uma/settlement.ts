import { createHash } from "node:crypto";
import {
  getPostTransactionCallback,
  PostTransactionCallbackSchema,
  verifyPostTransactionCallbackSignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import type { JobContext, JobHandler } from "../core/jobs/jobs.js";
import {
  completeUmaSend,
  failUmaSend,
  lockIncomingByPaymentHash,
  lockProcessingUmaSend,
  settleUmaIncoming,
  UMA_PAY_INVOICE,
} from "../payments/uma-payments.js";
import { jobNow } from "../platform/clock.js";
import { findPlatform, type PlatformRow } from "../platform/store.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import { findQuote } from "../quotes/store.js";
import {
  counterpartyPost,
  counterpartyPubKeys,
  databaseNonceValidator,
  describe,
  vaspBaseUrl,
} from "./counterparty.js";
import { type ProtocolAnswer, platformOfDomain, protocolError, umaErrorAnswer } from "./receive.js";
import { readSandboxInvoice } from "./settlement-invoice.js";
import { vaspKeys } from "./vasp-keys.js";

// The sandbox settlement layer between VASPs (issue 19): the sending VASP pays the receiving VASP's
// invoice by posting it to `<receiving VASP>/uma/sandbox/settle`, which settles the receiver's payment and
// answers the payment's preimage; its hash is the settlement leg's `transactionHash`. Sandbox platforms
// only: production has no settlement layer yet (docs/guides/uma.md).

/** The receiving side: pays `invoice` of a receiver of `domain`, once; answers the preimage. */
export async function settleInvoice(deps: Deps, domain: string, body: unknown): Promise<ProtocolAnswer> {
  const invoice =
    typeof body === "object" && body !== null ? (body as { invoice?: unknown }).invoice : undefined;
  const read = typeof invoice === "string" ? readSandboxInvoice(invoice) : undefined;
  if (!read) return umaErrorAnswer(400, "INVALID_INPUT", "Send {invoice} with a sandbox invoice.");
  const platform = await platformOfDomain(deps, domain);
  if (platform?.environment !== "SANDBOX")
    return umaErrorAnswer(404, "NOT_FOUND", `${domain} has no sandbox settlement layer.`);
  return deps.db.transaction(async (tx): Promise<ProtocolAnswer> => {
    const row = await lockIncomingByPaymentHash(tx, read.paymentHash);
    if (!row || row.platform_id !== platform.id || row.details.uma === undefined)
      return umaErrorAnswer(404, "NOT_FOUND", "No such invoice.");
    const uma = row.details.uma as { preimage: string; invoice: string };
    if (uma.invoice !== invoice) return umaErrorAnswer(404, "NOT_FOUND", "No such invoice.");
    if (row.status !== "PENDING" && row.status !== "COMPLETED")
      return umaErrorAnswer(409, "INVOICE_NOT_PAYABLE", `The payment is ${row.status}.`);
    const platformNow = new Date(deps.clock.now().getTime() + platform.clock_offset_ms);
    await settleUmaIncoming(tx, row, platformNow);
    return { status: 200, body: { paymentHash: read.paymentHash, preimage: uma.preimage } };
  });
}

/** The preimage the receiver answered, if it is the invoice's. */
function preimageOf(text: string, paymentHash: string): string | undefined {
  try {
    const { preimage } = JSON.parse(text) as { preimage?: unknown };
    if (typeof preimage !== "string" || !/^[0-9a-f]{64}$/.test(preimage)) return undefined;
    const hash = createHash("sha256").update(Buffer.from(preimage, "hex")).digest("hex");
    return hash === paymentHash ? preimage : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sending side (`uma.pay-invoice`): pays the quote's invoice at the receiving VASP. Paid (the
 * preimage matches) → COMPLETED with the settlement leg's hash; refused → FAILED, the debit refunded;
 * unreachable → retried with the job runner's backoff.
 */
const payInvoice: JobHandler = async (context: JobContext) => {
  const { deps, job } = context;
  const transactionId = String(job.payload.transactionId);
  const platform = await findPlatform(deps.db, job.platformId);
  const [pending] = await deps.db.query<{ quote_id: string | null; status: string }>(
    "SELECT quote_id, status FROM transactions WHERE platform_id = $1 AND id = $2",
    [job.platformId, transactionId],
  );
  const quote = pending?.quote_id ? await findQuote(deps.db, job.platformId, pending.quote_id) : undefined;
  const uma = quote?.details.uma as
    | { invoice: string; paymentHash: string; receiverBase: string; utxoCallback?: string }
    | undefined;
  let outcome: { paid: string } | { refused: string };
  if (!platform || !uma || pending?.status !== "PROCESSING") outcome = { refused: "nothing to pay" };
  else {
    try {
      const answer = await counterpartyPost(
        deps,
        platform.environment,
        `${uma.receiverBase}/uma/sandbox/settle`,
        JSON.stringify({ invoice: uma.invoice }),
      );
      const preimage = answer.status === 200 ? preimageOf(answer.text, uma.paymentHash) : undefined;
      outcome = preimage ? { paid: uma.paymentHash } : { refused: `the receiver answered ${answer.status}` };
    } catch (error) {
      throw new Error(`the receiving VASP could not be reached: ${describe(error)}`);
    }
  }
  const completed = await deps.db.transaction(async (tx) => {
    const now = await jobNow(tx, context);
    const row = await lockProcessingUmaSend(tx, job.platformId, transactionId);
    if (row) {
      if ("paid" in outcome) await completeUmaSend(tx, row, outcome.paid, now);
      else await failUmaSend(tx, row, now);
    }
    await context.finish(tx);
    return row !== undefined && "paid" in outcome;
  });
  if (completed && platform && uma) await postTransactionCallback(deps, platform, uma);
};

/**
 * UMA's post-transaction callback: once paid, the sender tells the receiving VASP, signed, at the
 * `utxoCallback` its pay request response named. Best effort: the payment is settled whatever it answers.
 */
async function postTransactionCallback(
  deps: Deps,
  platform: PlatformRow,
  uma: { utxoCallback?: string },
): Promise<void> {
  if (!uma.utxoCallback) return;
  const domain = umaDomainOf(platform, deps.publicUrl);
  const keys = await vaspKeys(deps, platform.id, domain);
  const callback = await getPostTransactionCallback({
    utxos: [],
    vaspDomain: domain,
    signingPrivateKey: keys.signingPrivateKey,
  });
  try {
    const answer = await counterpartyPost(
      deps,
      platform.environment,
      uma.utxoCallback,
      JSON.stringify(callback),
    );
    if (answer.status !== 200)
      deps.logger.warn(
        { platformId: platform.id, status: answer.status },
        "UMA post-transaction callback refused",
      );
  } catch (error) {
    deps.logger.warn(
      { platformId: platform.id, error: describe(error) },
      "UMA post-transaction callback failed",
    );
  }
}

/**
 * The receiving side of the post-transaction callback (`POST .../uma/utxo-callback`): the sender's
 * signature checked against its published keys; nothing else to record, since no UTXO moves in the sandbox.
 */
export async function answerUtxoCallback(
  deps: Deps,
  origin: string,
  domain: string,
  body: unknown,
): Promise<ProtocolAnswer> {
  const platform = await platformOfDomain(deps, domain);
  if (!platform) return umaErrorAnswer(404, "NOT_FOUND", `${domain} is not served here.`);
  try {
    const callback = PostTransactionCallbackSchema.parse(body);
    const sender = callback.vaspDomain;
    if (!sender)
      return umaErrorAnswer(400, "MISSING_REQUIRED_UMA_PARAMETERS", "The callback names no vaspDomain.");
    const keys = await counterpartyPubKeys(
      deps,
      platform.environment,
      await vaspBaseUrl(deps, sender, origin),
      sender,
    );
    if (!(await verifyPostTransactionCallbackSignature(callback, keys, databaseNonceValidator(deps, sender))))
      return umaErrorAnswer(401, "INVALID_SIGNATURE", "The callback's signature does not verify.");
  } catch (error) {
    if (error instanceof Error && error.name === "ZodError")
      return umaErrorAnswer(400, "INVALID_INPUT", "The body is not a post-transaction callback.");
    return protocolError(error);
  }
  return { status: 200, body: { status: "OK" } };
}

export const umaJobHandlers = (): Record<string, JobHandler> => ({ [UMA_PAY_INVOICE]: payInvoice });
