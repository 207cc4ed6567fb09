import { parseId } from "../core/ids.js";
import { findInternalAccount } from "../customers/accounts-store.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import type { ExecutionGate } from "./execution-gate.js";

/**
 * The end-user terms at execution, as at creation: the source customer and, for a transfer to another
 * internal account, its owner. A payout's external account always belongs to the source's owner.
 */
export const endUserTermsGate: ExecutionGate = async (tx, { caller }, quote) => {
  const destinationId =
    quote.destination_account_id && parseId("InternalAccount", quote.destination_account_id);
  const destination = destinationId
    ? await findInternalAccount(tx, caller.platformId, destinationId)
    : undefined;
  await requireEndUserTerms(tx, [quote.customer_id, destination?.customer_id]);
  return undefined;
};
