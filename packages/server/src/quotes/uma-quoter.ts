import type { Deps } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import type { CreateQuoteBody } from "./schemas.js";
import type { QuoteRow } from "./store.js";

/**
 * Prices a quote to a UMA address: the pay request round trip with the receiver's VASP (uma/quotes.ts),
 * answering the quote row to store, not yet stored. Handed to payments by the composition root (app.ts),
 * since the protocol's area depends on payments for the money; routes without one answer `501`.
 */
export type UmaQuoter = (
  deps: Deps,
  caller: Caller,
  body: CreateQuoteBody,
  origin: string,
) => Promise<QuoteRow>;
