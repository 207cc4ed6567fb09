import { createHash, randomBytes } from "node:crypto";
import {
  getPayReqResponse,
  getPayRequest,
  getSignedLnurlpRequestUrl,
  getVaspDomainFromUmaAddress,
  KycStatus,
  LnurlpResponse,
  PayReqResponse,
  PayRequest,
  verifyPayReqSignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency } from "../core/money.js";
import { findCustomerOrThrow } from "../customers/customers.js";
import { findTransaction } from "../payments/store.js";
import { toTransaction } from "../payments/wire.js";
import {
  counterpartyGet,
  counterpartyPost,
  counterpartyPubKeys,
  databaseNonceValidator,
  vaspBaseUrl,
} from "./counterparty.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { type ProtocolAnswer, protocolError, umaErrorAnswer } from "./receive.js";
import { COUNTERPARTY_SIGNING_KEY } from "./sandbox-counterparty.js";
import { SANDBOX_COUNTERPARTY_DOMAIN } from "./sandbox-counterparty-domains.js";
import { readSandboxInvoice, sandboxInvoice } from "./settlement-invoice.js";

// The sandbox counterparty's pay requests, both ways (docs/guides/uma.md "Sandbox counterparty"): as a
// receiver it answers pay requests to its addresses (some refuse as named); as a sender it pays one of
// this service's customers (`POST /sandbox/uma/receive`), over the same HTTP any VASP uses.

/** Preimages of the invoices the counterparty issued, by payment hash (a test double: per process). */
const preimages = new Map<string, string>();
const MAX_OPEN_INVOICES = 10_000;

/** How a counterparty receiver answers a pay request, by the address's user part. */
const payReqBehaviour: Readonly<Record<string, string>> = {
  "rejects.sender": "SENDER_NOT_ACCEPTED",
  "payreq.fails": "FAILS",
  "payreq.malformed": "MALFORMED",
  "payreq.unsigned": "UNSIGNED",
  duplicate: "DUPLICATE",
  "unknown.receiver": "USER_NOT_FOUND",
  "payee.data.unknown": "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY",
};

/** `POST .../uma/payreq/{user}` of a counterparty domain. */
export async function counterpartyPayReqAnswer(
  deps: Deps,
  origin: string,
  user: string,
  body: string,
): Promise<ProtocolAnswer> {
  const behaviour = payReqBehaviour[user];
  if (behaviour === "SENDER_NOT_ACCEPTED")
    return umaErrorAnswer(
      400,
      "SENDER_NOT_ACCEPTED",
      "This receiver does not accept payments from your VASP.",
    );
  if (behaviour === "USER_NOT_FOUND")
    return umaErrorAnswer(404, "USER_NOT_FOUND", "The receiver closed its account after the lookup.");
  if (behaviour === "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY")
    return umaErrorAnswer(
      501,
      "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY",
      "This receiver requires payee data it cannot name.",
    );
  if (behaviour === "FAILS") return umaErrorAnswer(500, "INTERNAL_ERROR", "The receiver's VASP failed.");
  if (behaviour === "DUPLICATE")
    return umaErrorAnswer(409, "DUPLICATE_PAY_REQUEST", "Seen this pay request before.");
  if (behaviour === "MALFORMED") return { status: 200, body: "<html>not a pay request response</html>" };
  let request: PayRequest;
  try {
    request = PayRequest.fromJson(body);
    const payer = request.payerData?.identifier;
    if (typeof payer !== "string") return umaErrorAnswer(400, "MISSING_REQUIRED_UMA_PARAMETERS", "No payer.");
    const sender = getVaspDomainFromUmaAddress(payer);
    const keys = await counterpartyPubKeys(deps, "SANDBOX", await vaspBaseUrl(deps, sender, origin), sender);
    if (!(await verifyPayReqSignature(request, keys, databaseNonceValidator(deps, sender))))
      return umaErrorAnswer(401, "INVALID_SIGNATURE", "The pay request's signature does not verify.");
  } catch (error) {
    return protocolError(error);
  }
  const code = request.receivingCurrencyCode ?? "USD";
  const multiplier = msatsPerMinorUnit(code, new Date());
  if (multiplier === undefined)
    return umaErrorAnswer(400, "INVALID_CURRENCY", `${code} is not received here.`);
  const preimage = randomBytes(32).toString("hex");
  const paymentHash = createHash("sha256").update(Buffer.from(preimage, "hex")).digest("hex");
  if (preimages.size >= MAX_OPEN_INVOICES) preimages.delete(preimages.keys().next().value as string);
  preimages.set(paymentHash, preimage);
  const payee = `$${user}@${SANDBOX_COUNTERPARTY_DOMAIN}`;
  const response = await getPayReqResponse({
    request,
    conversionRate: multiplier,
    receivingCurrencyCode: code,
    receivingCurrencyDecimals: currency(code).decimals,
    invoiceCreator: { createUmaInvoice: async (msats) => sandboxInvoice(paymentHash, msats) },
    metadata: JSON.stringify([["text/plain", `Pay ${payee}`]]),
    receiverChannelUtxos: [],
    receiverFeesMillisats: 0,
    utxoCallback: `${origin}/uma/${SANDBOX_COUNTERPARTY_DOMAIN}/uma/utxo-callback`,
    payeeData: { identifier: payee },
    receivingVaspPrivateKey: COUNTERPARTY_SIGNING_KEY,
    payeeIdentifier: payee,
  });
  const answer = JSON.parse(response.toJsonString()) as {
    payeeData?: { compliance?: { signature?: string } };
  };
  if (behaviour === "UNSIGNED" && answer.payeeData?.compliance) answer.payeeData.compliance.signature = "00";
  return { status: 200, body: answer };
}

/** `POST .../uma/sandbox/settle` of a counterparty domain: its invoices are paid once. */
export function counterpartySettleAnswer(body: unknown): ProtocolAnswer {
  const invoice =
    typeof body === "object" && body !== null ? (body as { invoice?: unknown }).invoice : undefined;
  const read = typeof invoice === "string" ? readSandboxInvoice(invoice) : undefined;
  const preimage = read ? preimages.get(read.paymentHash) : undefined;
  if (!read || !preimage) return umaErrorAnswer(404, "NOT_FOUND", "No such invoice.");
  return { status: 200, body: { paymentHash: read.paymentHash, preimage } };
}

export interface SandboxReceiveInput {
  senderUmaAddress: string;
  receiverUmaAddress?: string | undefined;
  customerId?: string | undefined;
  receivingCurrencyCode: string;
  receivingCurrencyAmount: number;
}

/**
 * `POST /sandbox/uma/receive`: the counterparty pays one of the platform's customers, as an outside VASP
 * would: the signed LNURLP request, the pay request, then its invoice paid over the settlement layer.
 * Answers the customer's INCOMING transaction, COMPLETED.
 */
export async function sandboxUmaReceive(
  deps: Deps,
  caller: Caller,
  origin: string,
  input: SandboxReceiveInput,
) {
  if (!input.senderUmaAddress.toLowerCase().endsWith(`@${SANDBOX_COUNTERPARTY_DOMAIN}`))
    throw new ApiError("INVALID_INPUT", {
      reason: `senderUmaAddress must be an address of the sandbox counterparty (@${SANDBOX_COUNTERPARTY_DOMAIN}).`,
      details: {
        errors: [{ field: "senderUmaAddress", message: `must end with @${SANDBOX_COUNTERPARTY_DOMAIN}` }],
      },
    });
  let receiver = input.receiverUmaAddress;
  if (input.customerId !== undefined) {
    const customer = await findCustomerOrThrow(deps.db, caller, input.customerId);
    receiver ??= customer.uma_address;
  }
  if (receiver === undefined) throw invalidField("receiverUmaAddress", "or customerId is required");
  const domain = receiver.slice(receiver.indexOf("@") + 1);
  const base = await vaspBaseUrl(deps, domain.toLowerCase(), origin);
  const signed = await getSignedLnurlpRequestUrl({
    isSubjectToTravelRule: true,
    receiverAddress: receiver,
    senderVaspDomain: SANDBOX_COUNTERPARTY_DOMAIN,
    signingPrivateKey: COUNTERPARTY_SIGNING_KEY,
  });
  const lnurlp = await counterpartyGet(deps, caller.environment, `${base}${signed.pathname}${signed.search}`);
  if (lnurlp.status === 404) throw new ApiError("UMA_NOT_FOUND", { reason: `No receiver ${receiver} here.` });
  if (lnurlp.status !== 200)
    throw new ApiError("LNURLP_REQUEST_FAILED", {
      reason: `The receiver answered ${lnurlp.status}: ${lnurlp.text}`,
    });
  const response = LnurlpResponse.fromJson(lnurlp.text);
  const keys = await counterpartyPubKeys(deps, caller.environment, base, domain.toLowerCase());
  const payRequest = await getPayRequest({
    receiverEncryptionPubKey: keys.getEncryptionPubKey(),
    sendingVaspPrivateKey: COUNTERPARTY_SIGNING_KEY,
    receivingCurrencyCode: input.receivingCurrencyCode,
    amount: input.receivingCurrencyAmount,
    isAmountInReceivingCurrency: true,
    payerIdentifier: input.senderUmaAddress,
    payerName: "Sandbox Counterparty",
    trInfo: JSON.stringify({ FULL_NAME: "Sandbox Counterparty" }),
    payerKycStatus: KycStatus.Verified,
    umaMajorVersion: Number.parseInt(response.umaVersion ?? "1", 10),
  });
  const answer = await counterpartyPost(
    deps,
    caller.environment,
    response.callback,
    payRequest.toJsonString(),
  );
  if (answer.status !== 200) {
    const refusal = JSON.parse(answer.text) as { code?: string; reason?: string };
    throw new ApiError(refusal.code === "INVALID_CURRENCY" ? "INVALID_CURRENCY" : "PAYREQ_REQUEST_FAILED", {
      reason: refusal.reason ?? `The receiver answered ${answer.status}.`,
    });
  }
  const invoice = readSandboxInvoice(PayReqResponse.fromJson(answer.text).pr);
  if (!invoice)
    throw new ApiError("INVALID_PAYREQ_RESPONSE", {
      reason: "The receiver's invoice is not a sandbox invoice.",
    });
  const settled = await counterpartyPost(
    deps,
    caller.environment,
    `${base}/uma/sandbox/settle`,
    JSON.stringify({ invoice: PayReqResponse.fromJson(answer.text).pr }),
  );
  if (settled.status !== 200)
    throw new ApiError("PAYREQ_REQUEST_FAILED", { reason: `Settlement answered ${settled.status}.` });
  const [row] = await deps.db.query<{ id: string }>(
    "SELECT id FROM transactions WHERE platform_id = $1 AND details #>> '{uma,paymentHash}' = $2",
    [caller.platformId, invoice.paymentHash],
  );
  const transaction = row ? await findTransaction(deps.db, caller.platformId, row.id) : undefined;
  if (!transaction)
    throw new ApiError("UMA_NOT_FOUND", { reason: `${receiver} is not a customer of this platform.` });
  return toTransaction(transaction);
}
