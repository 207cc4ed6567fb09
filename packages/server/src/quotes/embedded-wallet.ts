import type { InternalAccountRow } from "../customers/accounts-store.js";
import type * as store from "./store.js";

/** The `action` of an off-ramp's payloadToSign (beside the signed-retry actions of conventions §5.3). */
export const EXECUTE_QUOTE_ACTION = "EXECUTE_QUOTE";

/**
 * The payload a session key of the source wallet stamps to execute the quote (conventions §3.3): compact
 * JSON naming the action, the wallet, the quote, the execute request and what moves, so a stamp
 * authorizes this quote's execution and nothing else. Clients never parse it; they stamp it byte for
 * byte (docs/decisions.md "Off-ramps from embedded wallets").
 */
function payloadToSign(row: store.QuoteRow, walletId: string): string {
  return JSON.stringify({
    action: EXECUTE_QUOTE_ACTION,
    accountId: walletId,
    quoteId: row.id,
    method: "POST",
    path: `/quotes/${row.id}/execute`,
    sendingCurrency: row.sending_currency,
    totalSendingAmount: row.total_sending_amount,
    destinationAccountId: row.destination_account_id,
    receivingCurrency: row.receiving_currency,
    totalReceivingAmount: row.total_receiving_amount,
    issuedAtMs: row.created_at.getTime(),
  });
}

/**
 * A quote from an EMBEDDED_WALLET answers one `paymentInstructions` entry whose `accountOrWalletInfo` is
 * the hosted API's PaymentEmbeddedWalletInfo `{accountType: "EMBEDDED_WALLET", payloadToSign}`; the
 * execute must carry its stamp (payments/wallet-signature.ts). Other quotes are returned unchanged.
 */
export function withWalletInstructions(row: store.QuoteRow, source: InternalAccountRow): store.QuoteRow {
  if (source.type !== "EMBEDDED_WALLET") return row;
  const instructions = [
    {
      instructionsNotes:
        "Stamp payloadToSign with an active session key of the source wallet and send it as the Service-Wallet-Signature header of POST /quotes/{quoteId}/execute.",
      accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign: payloadToSign(row, source.id) },
    },
  ];
  return { ...row, details: { ...row.details, paymentInstructions: instructions } };
}

/** The off-ramp's payloadToSign when the quote is one (its source is an EMBEDDED_WALLET), else undefined. */
export function walletPayloadToSign(row: store.QuoteRow): string | undefined {
  const instructions = row.details.paymentInstructions;
  if (!Array.isArray(instructions)) return undefined;
  for (const entry of instructions) {
    const info = (entry as { accountOrWalletInfo?: { accountType?: unknown; payloadToSign?: unknown } })
      .accountOrWalletInfo;
    if (info?.accountType === "EMBEDDED_WALLET" && typeof info.payloadToSign === "string")
      return info.payloadToSign;
  }
  return undefined;
}
