/**
 * Builds a periodic statement (interface "Periodic statement rules"): reads the whole month window,
 * checks it, reads each transaction once, and turns the changes into lines.
 */
import { PaysvcError } from "../core/errors.js";
import type { ApiResult, RequestOptions } from "../core/request.js";
import { backoffMs, retryDelayMs } from "../core/retry.js";
import type {
  AnyTransaction,
  BalanceChangeParams,
  BalanceChangeWindow,
  InternalAccount,
} from "../types/index.js";
import { checkWindow, fail, type WindowPage } from "./check.js";
import { isDeclinedCard, toLines } from "./lines.js";
import { exactSum } from "./money.js";
import { type StatementPeriod, statementPeriod } from "./period.js";
import { DEFAULT_QUESTIONS_CONTACT, type Statement } from "./statement.js";

export interface BuildStatementOptions {
  /** The customer's USD `INTERNAL_FIAT` account (`InternalAccount:<uuid>`). */
  accountId: string;
  /** The Chicago calendar month, `YYYY-MM`. */
  month: string;
  /** Show each non-zero fee as its own line (`amount − fee`, then `fee`). Default false. */
  feesAsSeparateLines?: boolean;
  /**
   * How long to keep waiting while the window is `409 NOT_YET_AVAILABLE` (card settlement not closed),
   * honouring `Retry-After`. Past it, the `ConflictError` is thrown. Default 120 000 ms.
   */
  maxWaitMs?: number;
  /** Where customers direct questions; default {@link DEFAULT_QUESTIONS_CONTACT}. */
  questionsContact?: string;
  /** Transactions read at the same time. Default 8. */
  concurrency?: number;
}

/** What the builder reads; the client's resources in practice, injectable for tests. */
export interface StatementSources {
  getAccount(accountId: string): Promise<InternalAccount>;
  balanceChanges(
    accountId: string,
    params: BalanceChangeParams,
    options?: RequestOptions,
  ): Promise<ApiResult<BalanceChangeWindow>>;
  getTransaction(transactionId: string): Promise<AnyTransaction>;
  /** The client's `maxRetries`, for failures other than `NOT_YET_AVAILABLE`. */
  maxRetries: number;
}

export const DEFAULT_MAX_WAIT_MS = 120_000;
const PAGE_LIMIT = 200;
const DEFAULT_CONCURRENCY = 8;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isNotYetAvailable = (error: unknown): error is PaysvcError =>
  error instanceof PaysvcError && error.status === 409 && error.code === "NOT_YET_AVAILABLE";

/**
 * One page, waiting out `409 NOT_YET_AVAILABLE` until `deadline` (at least `Retry-After`, growing by
 * backoff when the hint is 0), and retrying other failures as the client would (rule 15).
 */
async function readPage(
  sources: StatementSources,
  accountId: string,
  params: BalanceChangeParams,
  deadline: number,
): Promise<WindowPage> {
  let waits = 0;
  let retries = 0;
  for (;;) {
    try {
      return await sources.balanceChanges(accountId, params, { maxRetries: 0 });
    } catch (error) {
      if (!(error instanceof PaysvcError)) throw error;
      let delay: number | undefined;
      if (isNotYetAvailable(error)) {
        delay = Math.max((error.retryAfterSeconds ?? 0) * 1000, backoffMs(waits++));
        // A wait that cannot end before the deadline is not started: the hint may be hours.
        if (Date.now() + delay > deadline) throw error;
      } else {
        delay = retries < sources.maxRetries ? retryDelayMs(error, true, retries++) : undefined;
        if (delay === undefined) throw error;
      }
      await sleep(delay);
    }
  }
}

async function readWindow(
  sources: StatementSources,
  accountId: string,
  period: StatementPeriod,
  maxWaitMs: number,
): Promise<WindowPage[]> {
  const deadline = Date.now() + maxWaitMs;
  const pages: WindowPage[] = [];
  let cursor: string | undefined;
  for (;;) {
    const params = { from: period.start, to: period.end, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) };
    const page = await readPage(sources, accountId, params, deadline);
    pages.push(page);
    if (!page.hasMore) return pages;
    if (!page.nextCursor || page.nextCursor === cursor) {
      const requestIds = pages.map((p) => p.lastResponse?.requestId ?? "unknown");
      fail("INVALID_PAGE", "A page with hasMore true gave no new nextCursor.", {
        accountId,
        period,
        requestIds,
      });
    }
    cursor = page.nextCursor;
  }
}

/** Reads each distinct id once, at most `limit` at a time; stops starting new reads after a failure. */
async function readTransactions(
  sources: StatementSources,
  ids: string[],
  limit: number,
): Promise<Map<string, AnyTransaction>> {
  const found = new Map<string, AnyTransaction>();
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < ids.length) {
      const id = ids[next++] as string;
      try {
        found.set(id, await sources.getTransaction(id));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, ids.length)) }, worker));
  return found;
}

function maskedNumber(account: InternalAccount): string {
  const number = account.fundingPaymentInstructions
    ?.map((i) => i.accountOrWalletInfo?.accountNumber)
    .find((n) => typeof n === "string" && /\d{4}/.test(n));
  const source = number ?? account.id;
  return `****${source.replace(/[^0-9A-Za-z]/g, "").slice(-4)}`;
}

/** Builds and checks one statement; see `StatementsResource.build`. */
export async function buildStatement(
  sources: StatementSources,
  options: BuildStatementOptions,
): Promise<Statement> {
  const period = statementPeriod(options.month);
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (!(maxWaitMs >= 0)) throw new TypeError("maxWaitMs must be ≥ 0.");
  const account = await sources.getAccount(options.accountId);
  const currencyCode = account.totalBalance.currency.code;
  const pages = await readWindow(sources, account.id, period, maxWaitMs);
  const window = checkWindow(pages, { accountId: account.id, period, currencyCode });
  const ids = [...new Set(window.changes.map((c) => c.transactionId))];
  const transactions = await readTransactions(sources, ids, options.concurrency ?? DEFAULT_CONCURRENCY);
  const context = { accountId: account.id, period, requestIds: window.requestIds };
  for (const change of window.changes) {
    const transaction = transactions.get(change.transactionId);
    if (transaction && isDeclinedCard(transaction) && change.amount.amount !== 0) {
      fail("DECLINED_ROW_MOVED_MONEY", `A DECLINED card row ${transaction.id} changed the balance.`, context);
    }
  }
  const lines = toLines(window.changes, transactions, options.feesAsSeparateLines ?? false);
  const amounts = lines.map((l) => l.amount);
  const totals = {
    credits: exactSum(amounts.filter((a) => a > 0)),
    debits: exactSum(amounts.filter((a) => a < 0)),
    fees: exactSum(lines.map((l) => l.fee)),
  };
  if (exactSum([window.openingBalance, totals.credits, totals.debits]) !== window.closingBalance) {
    fail("LINES_SUM", "The statement lines do not sum to closingBalance - openingBalance.", context);
  }
  return {
    account: {
      id: account.id,
      maskedNumber: maskedNumber(account),
      ...(account.customerId ? { customerId: account.customerId } : {}),
      type: account.type,
    },
    currency: window.currency,
    period,
    openingBalance: window.openingBalance,
    closingBalance: window.closingBalance,
    lines,
    totals,
    generatedAt: new Date().toISOString(),
    questionsContact: options.questionsContact ?? DEFAULT_QUESTIONS_CONTACT,
  };
}
