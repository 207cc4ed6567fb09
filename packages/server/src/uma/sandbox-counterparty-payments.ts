import { createHash, randomBytes } from "node:crypto";
import {
  getPayReqResponse,
  getSignedLnurlpRequestUrl,
  getVaspDomainFromUmaAddress,
  LnurlpResponse,
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
import type { CustomerInfoFieldName } from "../platform/currency-configs.js";
import {
  counterpartyGet,
  counterpartyPost,
  counterpartyPubKeys,
  databaseNonceValidator,
  vaspBaseUrl,
} from "./counterparty.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { sendPayRequest } from "./pay-request.js";
import { askedPayerData, missingPayerData, payerDataFor } from "./payer-data.js";
import { type ProtocolAnswer, protocolError, umaErrorAnswer } from "./receive.js";
import { COUNTERPARTY_SIGNING_KEY, counterpartyPayerFields } from "./sandbox-counterparty.js";
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
  const missing = missingPayerData(counterpartyPayerFields(user), request.payerData);
  if (missing.length > 0)
    return umaErrorAnswer(400, "MISSING_MANDATORY_PAYER_DATA", `Payer data required: ${missing.join(", ")}.`);
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

/** A counterparty sender that gives no payer data beyond its address (docs/guides/uma.md). */
const SILENT_SENDER = "$no.payer.data";

/** What the counterparty's senders say about their payer when a receiver asks. */
const SAMPLE_PAYER: Readonly<Record<CustomerInfoFieldName, string>> = {
  FULL_NAME: "Sandbox Counterparty",
  BIRTH_DATE: "1985-06-15",
  NATIONALITY: "DE",
  PHONE_NUMBER: "+4915112345678",
  EMAIL: "payer@counterparty.sandbox.localhost",
  POSTAL_ADDRESS: "Unter den Linden 1, 10117 Berlin, DE",
  TAX_ID: "DE123456789",
  REGISTRATION_NUMBER: "HRB 123456",
  USER_TYPE: "INDIVIDUAL",
  COUNTRY_OF_RESIDENCE: "DE",
  ACCOUNT_IDENTIFIER: "DE89370400440532013000",
  FI_LEGAL_ENTITY_NAME: "Sandbox Counterparty VASP GmbH",
  FI_ADDRESS: "Friedrichstrasse 1, 10117 Berlin, DE",
  PURPOSE_OF_PAYMENT: "GIFT",
  ULTIMATE_INSTITUTION_COUNTRY: "DE",
  IDENTIFIER: "$payer@counterparty.sandbox.localhost",
  BUSINESS_TYPE: "SOLE_PROPRIETORSHIP",
  COMPANY_LEGAL_NAME: "Sandbox Counterparty",
  ID_TYPE: "PASSPORT",
  ID_NUMBER: "C01X00T47",
};

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
  const silent = input.senderUmaAddress.toLowerCase().startsWith(`${SILENT_SENDER}@`);
  const payReqResponse = await sendPayRequest(deps, {
    environment: caller.environment,
    lnurlp: response,
    receiverDomain: domain.toLowerCase(),
    receiverAddress: receiver,
    receiverKeys: keys,
    signingPrivateKey: COUNTERPARTY_SIGNING_KEY,
    payerIdentifier: input.senderUmaAddress,
    payerData: silent ? {} : payerDataFor(askedPayerData(response.payerData), SAMPLE_PAYER),
    travelRule: silent ? {} : SAMPLE_PAYER,
    receivingCurrencyCode: input.receivingCurrencyCode,
    amount: input.receivingCurrencyAmount,
    inReceivingCurrency: true,
    utxoCallback: `${origin}/uma/${SANDBOX_COUNTERPARTY_DOMAIN}/uma/utxo-callback`,
  });
  const invoice = readSandboxInvoice(payReqResponse.pr);
  if (!invoice)
    throw new ApiError("INVALID_PAYREQ_RESPONSE", {
      reason: "The receiver's invoice is not a sandbox invoice.",
    });
  const settled = await counterpartyPost(
    deps,
    caller.environment,
    `${base}/uma/sandbox/settle`,
    JSON.stringify({ invoice: payReqResponse.pr }),
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
