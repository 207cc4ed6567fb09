import { createHash, randomBytes } from "node:crypto";
import {
  ErrorCode,
  getPayReqResponse,
  getVaspDomainFromUmaAddress,
  PayRequest,
  UmaError,
  verifyPayReqSignature,
} from "@uma-sdk/core";
import { type Deps, nowFor } from "../core/deps.js";
import { currency, isKnownCurrency } from "../core/money.js";
import { listAccountsOfCustomer } from "../customers/accounts-store.js";
import { hasIncomingPayRequest, openUmaIncoming } from "../payments/uma-payments.js";
import { currencyConfigOf } from "../platform/currency-configs.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import { counterpartyPubKeys, databaseNonceValidator, vaspBaseUrl } from "./counterparty.js";
import { askPlatform } from "./incoming-approval.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { counterpartyInformation, missingPayerData, umaKeyOf } from "./payer-data.js";
import {
  type ProtocolAnswer,
  platformOfDomain,
  protocolError,
  receiverOf,
  umaErrorAnswer,
} from "./receive.js";
import { sandboxInvoice } from "./settlement-invoice.js";
import { vaspKeys } from "./vasp-keys.js";

/** The payee data this receiver can provide when a sender asks for it. */
const knownPayeeData = new Set(["identifier", "name", "email", "compliance"]);

/** A sender whose UMA address starts with this is refused by every sandbox receiver (docs/guides/uma.md). */
const REFUSED_SENDER_PREFIX = "$rejected";

/**
 * The pay request callback of a platform's receiver (`POST .../uma/payreq/{user}`): the sender's signed
 * pay request checked, an invoice issued for the amount at this VASP's rate, the receiver's INCOMING
 * payment opened PENDING, and the signed pay request response. A pay request seen before (same sender
 * VASP and nonce) is `409 DUPLICATE_PAY_REQUEST`.
 */
export async function answerPayRequest(
  deps: Deps,
  origin: string,
  domain: string,
  user: string,
  body: string,
): Promise<ProtocolAnswer> {
  const platform = await platformOfDomain(deps, domain);
  const customer = platform ? await receiverOf(deps, platform, user, domain) : undefined;
  if (!platform || !customer) return umaErrorAnswer(404, "USER_NOT_FOUND", `No receiver $${user}@${domain}.`);
  let request: PayRequest;
  try {
    request = PayRequest.fromJson(body);
  } catch (error) {
    return umaErrorAnswer(
      400,
      "PARSE_PAYREQ_REQUEST_ERROR",
      `The pay request does not parse: ${String(error)}`,
    );
  }
  const payer = request.payerData?.identifier;
  const nonce = request.payerData?.compliance?.signatureNonce;
  if (!request.isUma() || typeof payer !== "string" || typeof nonce !== "string")
    return umaErrorAnswer(400, "MISSING_REQUIRED_UMA_PARAMETERS", "UMA pay requests only.");
  const unknownKeys = Object.entries(request.requestedPayeeData ?? {}).filter(
    ([key, option]) => option?.mandatory && !knownPayeeData.has(key),
  );
  if (unknownKeys.length > 0)
    return umaErrorAnswer(
      501,
      "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY",
      `This receiver cannot provide payee data ${unknownKeys.map(([key]) => key).join(", ")}.`,
    );
  const senderDomain = getVaspDomainFromUmaAddress(payer);
  if (await deps.db.transaction((tx) => hasIncomingPayRequest(tx, senderDomain, nonce)))
    return umaErrorAnswer(409, "DUPLICATE_PAY_REQUEST", "This pay request was already accepted.");
  try {
    const keys = await counterpartyPubKeys(
      deps,
      platform.environment,
      await vaspBaseUrl(deps, senderDomain, origin),
      senderDomain,
    );
    if (!(await verifyPayReqSignature(request, keys, databaseNonceValidator(deps, senderDomain))))
      throw new UmaError("The pay request's signature does not verify.", ErrorCode.INVALID_SIGNATURE);
  } catch (error) {
    return protocolError(error);
  }
  if (payer.toLowerCase().startsWith(REFUSED_SENDER_PREFIX))
    return umaErrorAnswer(400, "SENDER_NOT_ACCEPTED", `${payer} is not accepted by this receiver.`);
  const code = request.receivingCurrencyCode ?? "";
  const config = currencyConfigOf(platform, code);
  const accounts = await listAccountsOfCustomer(deps.db, customer.id);
  const account = accounts.find((a) => a.currency === code && a.status === "ACTIVE" && a.role === "STANDARD");
  const multiplier = isKnownCurrency(code) ? msatsPerMinorUnit(code, new Date()) : undefined;
  if (!account || multiplier === undefined || !config?.enabledTransactionTypes.includes("INCOMING"))
    return umaErrorAnswer(400, "INVALID_CURRENCY", `$${user}@${domain} does not receive ${code}.`);
  const missing = missingPayerData(config.requiredCounterpartyFields, request.payerData);
  if (missing.length > 0)
    return umaErrorAnswer(
      400,
      "MISSING_MANDATORY_PAYER_DATA",
      `This receiver requires payer data: ${missing.map(umaKeyOf).join(", ")}.`,
    );
  const own = umaDomainOf(platform, deps.publicUrl);
  const signing = await vaspKeys(deps, platform.id, own);
  const base = await vaspBaseUrl(deps, own, origin);
  const preimage = randomBytes(32);
  const paymentHash = createHash("sha256").update(preimage).digest("hex");
  const payeeIdentifier = `$${user}@${domain}`;
  let response: Awaited<ReturnType<typeof getPayReqResponse>>;
  try {
    response = await getPayReqResponse({
      request,
      conversionRate: multiplier,
      receivingCurrencyCode: code,
      receivingCurrencyDecimals: currency(code).decimals,
      invoiceCreator: { createUmaInvoice: async (msats) => sandboxInvoice(paymentHash, msats) },
      metadata: JSON.stringify([
        ["text/plain", `Pay ${payeeIdentifier}`],
        ["text/identifier", payeeIdentifier],
      ]),
      receiverChannelUtxos: [],
      receiverFeesMillisats: 0,
      utxoCallback: `${base}/uma/utxo-callback`,
      payeeData: { identifier: payeeIdentifier },
      receivingVaspPrivateKey: signing.signingPrivateKey,
      payeeIdentifier,
    });
  } catch (error) {
    return protocolError(error);
  }
  const amount = response.converted?.amount ?? 0;
  if (!Number.isSafeInteger(amount) || amount < Math.max(1, config.minAmount) || amount > config.maxAmount)
    return umaErrorAnswer(
      400,
      "AMOUNT_OUT_OF_RANGE",
      `${amount} ${code} minor units is outside ${config.minAmount} to ${config.maxAmount}.`,
    );
  const opened = await deps.db.transaction((tx) =>
    openUmaIncoming(tx, {
      platformId: platform.id,
      account,
      amount,
      senderUmaAddress: payer,
      counterpartyInformation: counterpartyInformation(request.payerData),
      uma: { paymentHash, preimage: preimage.toString("hex"), invoice: response.pr, senderDomain, nonce },
      now: nowFor(deps, { clockOffsetMs: platform.clock_offset_ms }),
    }),
  );
  const refusal = await askPlatform(deps, platform, opened.row.id, opened.deliveryId);
  if (refusal) return refusal;
  return { status: 200, body: JSON.parse(response.toJsonString()) };
}
