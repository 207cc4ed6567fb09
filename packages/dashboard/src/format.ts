import { formatMoney } from "../../sdk/src/statements/money.js";
import type { Currency, CurrencyAmount } from "../../sdk/src/types/index.js";

/** An amount in minor units as the statement prints it, e.g. `$1,234.50`. */
export function money(amount: CurrencyAmount): string {
  return formatMoney(amount.amount, amount.currency as Currency);
}

/** An instant as `2031-03-02 15:00 UTC`: the platform clock is shown in UTC, never in the viewer's zone. */
export function when(instant: string | null | undefined): string {
  if (!instant) return "—";
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return instant;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A message for a failed call, with the request id to quote. */
export function describeError(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && "reason" in error) {
    const e = error as { code: string; reason: string; requestId?: string };
    return `${e.code}: ${e.reason}${e.requestId ? ` (request ${e.requestId})` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}
