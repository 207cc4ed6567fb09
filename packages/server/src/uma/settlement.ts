import { createHash } from "node:crypto";
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
import { findPlatform } from "../platform/store.js";
import { findQuote } from "../quotes/store.js";
import { counterpartyPost, describe } from "./counterparty.js";
import { type ProtocolAnswer, platformOfDomain, umaErrorAnswer } from "./receive.js";
import { readSandboxInvoice } from "./settlement-invoice.js";

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
    | { invoice: string; paymentHash: string; receiverBase: string }
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
  await deps.db.transaction(async (tx) => {
    const now = await jobNow(tx, context);
    const row = await lockProcessingUmaSend(tx, job.platformId, transactionId);
    if (row) {
      if ("paid" in outcome) await completeUmaSend(tx, row, outcome.paid, now);
      else await failUmaSend(tx, row, now);
    }
    await context.finish(tx);
  });
};

export const umaJobHandlers = (): Record<string, JobHandler> => ({ [UMA_PAY_INVOICE]: payInvoice });
