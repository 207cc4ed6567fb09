import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import { parseId } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import type { CreateQuoteBody } from "./schemas.js";

/** The forms built so far: from an internal account to an internal account or an external bank account. */
export interface AccountTransferRequest extends CreateQuoteBody {
  source: CreateQuoteBody["source"] & { sourceType: "ACCOUNT"; accountId: string };
  destination: CreateQuoteBody["destination"] & { destinationType: "ACCOUNT"; accountId: string };
}

const notBuilt = (what: string) =>
  new ApiError("NOT_IMPLEMENTED", {
    reason: `${what} are not built yet; only transfers between internal accounts are.`,
  });

/** Fields of another form, sent on this one: refused rather than silently dropped. */
function foreignFields(body: CreateQuoteBody): FieldError[] {
  const errors: FieldError[] = [];
  const refuse = (field: string, value: unknown, message: string) => {
    if (value !== undefined) errors.push({ field, message });
  };
  const { source, destination } = body;
  if (source.sourceType === "ACCOUNT") {
    refuse("source.currency", source.currency, "applies only to REALTIME_FUNDING sources");
    refuse("source.cryptoNetwork", source.cryptoNetwork, "applies only to REALTIME_FUNDING sources");
  }
  if (destination.destinationType === "ACCOUNT") {
    refuse("destination.umaAddress", destination.umaAddress, "applies only to UMA_ADDRESS destinations");
    refuse("senderCustomerInfo", body.senderCustomerInfo, "applies only to UMA_ADDRESS destinations");
    if (parseId("InternalAccount", destination.accountId)) {
      refuse("lookupId", body.lookupId, "applies only to UMA_ADDRESS and external account destinations");
      refuse(
        "destination.paymentRail",
        destination.paymentRail,
        "applies only to payouts to external accounts",
      );
    }
  }
  return errors;
}

/**
 * The checks that need no database, in the conventions' order (§1.7): field errors, then unknown
 * currency codes, then self payment; forms not built yet answer `501 NOT_IMPLEMENTED` after those.
 */
export function checkQuoteRequest(body: CreateQuoteBody): AccountTransferRequest {
  const errors = foreignFields(body);
  if (errors.length > 0) throw invalidInput(errors);
  for (const code of [body.source.currency, body.destination.currency]) {
    if (code !== undefined && !isKnownCurrency(code))
      throw new ApiError("INVALID_CURRENCY", { reason: `Unknown currency ${code}.` });
  }
  const { source, destination } = body;
  if (source.accountId !== undefined && source.accountId === destination.accountId) {
    throw new ApiError("SELF_PAYMENT", { reason: "The source and destination are the same account." });
  }
  if (source.sourceType !== "ACCOUNT" || source.accountId === undefined)
    throw notBuilt("Quotes funded by REALTIME_FUNDING");
  if (destination.destinationType !== "ACCOUNT" || destination.accountId === undefined)
    throw notBuilt("Quotes to UMA_ADDRESS destinations");
  return body as AccountTransferRequest;
}
