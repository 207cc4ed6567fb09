import {
  getPayRequest,
  KycStatus,
  type LnurlpResponse,
  PayReqResponse,
  type PubKeyResponse,
  verifyPayReqResponseSignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Environment } from "../core/http/context.js";
import { counterpartyPost, databaseNonceValidator, describe, fromUmaError } from "./counterparty.js";

export interface PayRequestInput {
  environment: Environment;
  lnurlp: LnurlpResponse;
  receiverDomain: string;
  receiverAddress: string;
  receiverKeys: PubKeyResponse;
  signingPrivateKey: Uint8Array;
  payerIdentifier: string;
  /** Payer data beyond the identifier and compliance data, under UMA's keys (name, email, birthDate…). */
  payerData: Record<string, unknown>;
  /** Travel-rule data for the receiving VASP, encrypted to its key by the SDK. */
  travelRule: Record<string, unknown>;
  receivingCurrencyCode: string;
  /** In the receiving currency's minor units when `inReceivingCurrency`, else in millisatoshis. */
  amount: number;
  inReceivingCurrency: boolean;
  utxoCallback: string;
}

/** The receiver's error codes a pay request can meet that have a catalogue code of their own. */
const receiverCodes: Readonly<Record<string, ApiError["code"]>> = {
  SENDER_NOT_ACCEPTED: "SENDER_NOT_ACCEPTED",
  DUPLICATE_PAY_REQUEST: "DUPLICATE_PAY_REQUEST",
  INVALID_CURRENCY: "INVALID_CURRENCY",
  AMOUNT_OUT_OF_RANGE: "AMOUNT_OUT_OF_RANGE",
  USER_NOT_FOUND: "INVALID_RECEIVER",
  UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY: "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY",
  MISSING_MANDATORY_PAYER_DATA: "MISSING_MANDATORY_USER_INFO",
  COUNTERPARTY_NOT_ALLOWED: "SENDER_NOT_ACCEPTED",
};

function receiverRefusal(status: number, text: string, domain: string): ApiError {
  let body: { code?: unknown; reason?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not UMA's error body: the status alone speaks
  }
  const code = typeof body.code === "string" ? receiverCodes[body.code] : undefined;
  const reason =
    typeof body.reason === "string" ? `${domain}: ${body.reason}` : `${domain} answered ${status}.`;
  if (code) return new ApiError(code, { reason });
  if (status === 409) return new ApiError("DUPLICATE_PAY_REQUEST", { reason });
  return new ApiError("PAYREQ_REQUEST_FAILED", { reason });
}

/**
 * Sends the signed pay request to the receiver's callback and checks its answer: unreachable or refused
 * → `424 PAYREQ_REQUEST_FAILED` (or the receiver's own code: SENDER_NOT_ACCEPTED, DUPLICATE_PAY_REQUEST…);
 * unparsable → `400 PARSE_PAYREQ_RESPONSE_ERROR`; not signed by the receiver, or without an invoice or
 * converted amount → `400 INVALID_PAYREQ_RESPONSE`.
 */
export async function sendPayRequest(deps: Deps, input: PayRequestInput): Promise<PayReqResponse> {
  const request = await getPayRequest({
    receiverEncryptionPubKey: input.receiverKeys.getEncryptionPubKey(),
    sendingVaspPrivateKey: input.signingPrivateKey,
    receivingCurrencyCode: input.receivingCurrencyCode,
    amount: input.amount,
    isAmountInReceivingCurrency: input.inReceivingCurrency,
    payerIdentifier: input.payerIdentifier,
    payerData: input.payerData,
    trInfo: JSON.stringify(input.travelRule),
    payerKycStatus: KycStatus.Verified,
    utxoCallback: input.utxoCallback,
    umaMajorVersion: Number.parseInt(input.lnurlp.umaVersion ?? "1", 10),
  });
  let answer: { status: number; text: string };
  try {
    answer = await counterpartyPost(deps, input.environment, input.lnurlp.callback, request.toJsonString());
  } catch (error) {
    throw new ApiError("PAYREQ_REQUEST_FAILED", {
      reason: `${input.receiverDomain} could not be reached: ${describe(error)}.`,
    });
  }
  if (answer.status !== 200) throw receiverRefusal(answer.status, answer.text, input.receiverDomain);
  let response: PayReqResponse;
  try {
    response = PayReqResponse.fromJson(answer.text);
  } catch (error) {
    throw new ApiError("PARSE_PAYREQ_RESPONSE_ERROR", {
      reason: `The pay request response of ${input.receiverDomain} does not parse: ${describe(error)}.`,
    });
  }
  if (!response.isUma() || !response.converted || !response.pr)
    throw new ApiError("INVALID_PAYREQ_RESPONSE", {
      reason: `The pay request response of ${input.receiverDomain} lacks its compliance data, invoice or converted amount.`,
    });
  let valid: boolean;
  try {
    valid = await verifyPayReqResponseSignature(
      response,
      input.payerIdentifier,
      input.receiverAddress,
      input.receiverKeys,
      databaseNonceValidator(deps, input.receiverDomain),
    );
  } catch (error) {
    const refused = fromUmaError(error, "PAYREQ_REQUEST_FAILED");
    throw refused.code === "PAYREQ_REQUEST_FAILED"
      ? new ApiError("INVALID_PAYREQ_RESPONSE", { reason: refused.reason })
      : refused;
  }
  if (!valid)
    throw new ApiError("INVALID_PAYREQ_RESPONSE", {
      reason: `The pay request response of ${input.receiverDomain} is not signed by the key it publishes.`,
    });
  return response;
}
