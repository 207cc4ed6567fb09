import { PaysvcError } from "../../sdk/src/core/errors.js";
import type { BalanceChangeWindow, InternalAccount } from "../../sdk/src/types/index.js";
import type { Api } from "./api.js";
import { seg } from "./api.js";

export interface BalancePoint {
  /** Unix seconds. */
  t: number;
  /** Ledger balance in minor units. */
  balance: number;
}

export interface BalanceSeries {
  points: BalancePoint[];
  /** Where the balance-changes feed ends: card settlement has closed up to here. */
  settledUntil: string;
}

const MAX_PAGES = 10;

/**
 * The balance over time: the balance-changes feed from the account's creation up to the latest instant
 * whose card settlement has closed (a window ending later is 409 NOT_YET_AVAILABLE, and its Retry-After
 * says by how much to shorten it), then the current ledger balance at the platform's now.
 */
export async function balanceSeries(api: Api, account: InternalAccount, now: string): Promise<BalanceSeries> {
  const path = `/internal-accounts/${seg(account.id)}/balance-changes`;
  const from = account.createdAt;
  let to = now;
  let first: BalanceChangeWindow | undefined;
  for (let attempt = 0; attempt < 3 && !first; attempt++) {
    try {
      first = await api.get<BalanceChangeWindow>(path, { from, to, limit: 200 });
    } catch (error) {
      const wait = error instanceof PaysvcError ? error.retryAfterSeconds : undefined;
      if (!(error instanceof PaysvcError && error.code === "NOT_YET_AVAILABLE" && wait !== undefined))
        throw error;
      to = new Date(Date.parse(to) - wait * 1000).toISOString();
      if (Date.parse(to) <= Date.parse(from)) break;
    }
  }
  const points: BalancePoint[] = [];
  const t = (instant: string) => Math.floor(Date.parse(instant) / 1000);
  if (first) {
    let balance = first.openingBalance.amount;
    points.push({ t: t(from), balance });
    let page: BalanceChangeWindow = first;
    for (let n = 0; n < MAX_PAGES; n++) {
      for (const change of page.data) {
        balance += change.amount.amount;
        points.push({ t: t(change.effectiveAt), balance });
      }
      if (!page.hasMore || !page.nextCursor) break;
      page = await api.get<BalanceChangeWindow>(path, { from, to, limit: 200, cursor: page.nextCursor });
    }
  }
  points.push({ t: t(now), balance: account.totalBalance.amount });
  return { points, settledUntil: first ? to : from };
}
