import { ApiError, invalidField } from "../core/errors/api-error.js";
import { currency as currencyOf } from "../core/money.js";
import { type AccountFields, hasRailFields } from "./account-rails.js";
import { corridorFor, type RailRoute, routesFor } from "./corridors.js";
import { sameDayCap } from "./rails.js";

export interface RailChoiceInput {
  /** The receiving currency (the external account's `currency`). */
  currency: string;
  /** The destination external account's type and fields. */
  account: AccountFields;
  /** `destination.paymentRail`, when the request pins one. */
  pinned?: string | undefined;
  /**
   * The amount that goes over the rail, in the receiving currency's minor units (`totalReceivingAmount`).
   * Without it, rail caps are not considered; with it, automatic selection passes over a rail whose cap
   * is below it, and a pinned rail above its cap is refused.
   */
  amount?: number | undefined;
  /** The platform clock (the ACH_SAME_DAY cap rises on 2027-09-17). */
  now: Date;
}

export interface RailChoice {
  rail: RailRoute["rail"];
  railSelectionMode: "AUTO" | "MANUAL";
}

/** A rail's per-payment cap in the receiving currency's minor units, or undefined where it has none. */
export function railCap(route: RailRoute, currency: string, now: Date): number | undefined {
  if (route.rail === "ACH_SAME_DAY") return sameDayCap(now);
  if (route.cap === undefined) return undefined;
  return route.cap * 10 ** currencyOf(currency).decimals;
}

const aboveCap = (route: RailRoute, currency: string, amount: number, cap: number) =>
  new ApiError("AMOUNT_OUT_OF_RANGE", {
    reason: `A ${route.rail} payment of ${amount} ${currency} minor units is above the rail's per-payment cap of ${cap}.`,
  });

/**
 * Picks the rail of a payout (conventions §3.5, issue 18 §2). Pinned: the corridor must serve the rail
 * to this account type and the account must have its fields, else `400 INVALID_INPUT` on
 * `destination.paymentRail`; above the rail's cap `400 AMOUNT_OUT_OF_RANGE`, never downgraded; mode
 * MANUAL. Not pinned: the first automatic rail, in the corridor's order, that can pay the account and
 * whose cap admits the amount; mode AUTO.
 */
export function chooseRail({ currency, account, pinned, amount, now }: RailChoiceInput): RailChoice {
  if (!corridorFor(currency)) {
    throw new ApiError("INVALID_CURRENCY", { reason: `No payout corridor receives ${currency}.` });
  }
  const routes = routesFor(currency, account.accountType);
  if (pinned !== undefined) {
    const route = routes.find((candidate) => candidate.rail === pinned);
    if (!route) {
      const served = routes.map((candidate) => candidate.rail);
      throw invalidField(
        "destination.paymentRail",
        `${currency} to a ${account.accountType} travels over ${served.join(", ") || "no rail"}`,
        { enum: served },
      );
    }
    if (!hasRailFields(route.rail, account)) {
      throw invalidField(
        "destination.paymentRail",
        `this ${account.accountType} has no details for ${route.rail}`,
      );
    }
    const cap = railCap(route, currency, now);
    if (amount !== undefined && cap !== undefined && amount > cap)
      throw aboveCap(route, currency, amount, cap);
    return { rail: route.rail, railSelectionMode: "MANUAL" };
  }
  const usable = routes.filter((route) => route.automatic && hasRailFields(route.rail, account));
  if (usable.length === 0) {
    throw invalidField("destination.accountId", `no rail of ${currency} can pay this ${account.accountType}`);
  }
  for (const route of usable) {
    const cap = railCap(route, currency, now);
    if (amount === undefined || cap === undefined || amount <= cap) {
      return { rail: route.rail, railSelectionMode: "AUTO" };
    }
  }
  const last = usable[usable.length - 1] as RailRoute;
  throw aboveCap(last, currency, amount ?? 0, railCap(last, currency, now) ?? 0);
}
