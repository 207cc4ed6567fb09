import type { Db, Executor } from "../src/core/db/db.js";
import { send } from "./http.js";
import type { Op } from "./load.js";

interface ChangeRow {
  [column: string]: unknown;
  account_id: string;
  transaction_id: string;
  amount: number;
  balance_after: number;
  count_after: number;
}

interface CardRow {
  [column: string]: unknown;
  id: string;
  card_id: string;
  authorized_amount: number;
  original_transaction_id: string | null;
}

export interface DbCheck {
  violations: string[];
  accounts: number;
  changes: number;
  keys: number;
  /** How many effect rows each key (Idempotency-Key) has. */
  effects: Map<string, number>;
  /** Events meant for the endpoint (not UNDELIVERABLE: raised before it was set). */
  committedEvents: string[];
}

/** The effect rows one op may have produced (0 or 1 when idempotency holds). */
function effectsOf(op: Op, changes: ChangeRow[], cards: CardRow[]): number {
  switch (op.kind) {
    case "fund":
      return changes.filter(
        (c) =>
          c.account_id === op.accountId &&
          c.amount === op.amount &&
          c.transaction_id.startsWith("Transaction:"),
      ).length;
    case "transfer":
      return changes.filter((c) => c.account_id === op.accountId && c.amount === -op.amount).length;
    case "authorization":
      return cards.filter(
        (c) =>
          c.card_id === op.cardId && c.authorized_amount === op.amount && c.original_transaction_id === null,
      ).length;
    case "clearing":
      return changes.filter((c) => c.transaction_id === op.cardTransactionId && c.amount < 0).length;
    case "return":
      return cards.filter((c) => c.original_transaction_id === op.cardTransactionId).length;
  }
}

/**
 * Reads the platform's ledger, card rows and outbox (with no process writing) and checks: every balance
 * row chains (`balance_after`, `count_after`), every account's balance is the sum of its changes, holds
 * match the open card rows, no balance is negative, every key produced at most one effect (exactly one
 * when it was answered 2xx, none when it was refused), and every event the receiver got is in the outbox.
 */
export async function checkDatabase(
  db: Executor,
  platformId: string,
  ops: Op[],
  received: Set<string>,
): Promise<DbCheck> {
  const violations: string[] = [];
  const accounts = await db.query<{ id: string; total_balance: number; held_amount: number }>(
    "SELECT id, total_balance, held_amount FROM internal_accounts WHERE platform_id = $1",
    [platformId],
  );
  const changes = await db.query<ChangeRow>(
    `SELECT account_id, transaction_id, amount, balance_after, count_after FROM balance_changes
     WHERE platform_id = $1 ORDER BY account_id, effective_at, id`,
    [platformId],
  );
  const holds = await db.query<{ account_id: string; held: number }>(
    `SELECT account_id, COALESCE(sum(hold_amount), 0)::int8 AS held FROM card_transactions
     WHERE platform_id = $1 AND status IN ('AUTHORIZED', 'PARTIALLY_SETTLED') GROUP BY account_id`,
    [platformId],
  );
  const cards = await db.query<CardRow>(
    "SELECT id, card_id, authorized_amount, original_transaction_id FROM card_transactions WHERE platform_id = $1",
    [platformId],
  );
  const byAccount = new Map<string, ChangeRow[]>();
  for (const change of changes) {
    const list = byAccount.get(change.account_id) ?? [];
    list.push(change);
    byAccount.set(change.account_id, list);
  }
  for (const account of accounts) {
    const list = byAccount.get(account.id) ?? [];
    let sum = 0;
    list.forEach((change, i) => {
      sum += change.amount;
      if (change.balance_after !== sum || change.count_after !== i + 1)
        violations.push(
          `${account.id}: change ${i + 1} has balance_after ${change.balance_after} / count_after ${change.count_after}, running ${sum} / ${i + 1}`,
        );
    });
    if (sum !== account.total_balance)
      violations.push(`${account.id}: total_balance ${account.total_balance} but its changes sum to ${sum}`);
    const held = holds.find((h) => h.account_id === account.id)?.held ?? 0;
    if (held !== account.held_amount)
      violations.push(`${account.id}: held_amount ${account.held_amount} but open card holds sum to ${held}`);
    if (account.total_balance < 0 || account.total_balance - account.held_amount < 0)
      violations.push(
        `${account.id}: negative balance (${account.total_balance} total, ${account.held_amount} held)`,
      );
  }
  const effectsByKey = new Map<string, number>();
  for (const op of ops) {
    const effects = effectsOf(op, changes, cards);
    effectsByKey.set(op.key, effects);
    const status = op.outcome?.status;
    const expected = status === undefined ? [0, 1] : status < 300 || op.outcome?.responseLost ? [1] : [0];
    if (!expected.includes(effects))
      violations.push(
        `key ${op.key} (${op.kind} ${op.amount}, answered ${status ?? "never"}${op.outcome?.code ? ` ${op.outcome.code}` : ""}) has ${effects} effects`,
      );
  }
  const events = await db.query<{ id: string; undeliverable: boolean }>(
    `SELECT e.id, EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'UNDELIVERABLE')
       AS undeliverable FROM webhook_events e WHERE e.platform_id = $1`,
    [platformId],
  );
  const all = new Set(events.map((e) => e.id));
  const phantom = [...received].filter((id) => !all.has(id));
  for (const id of phantom) violations.push(`event ${id} reached the receiver but is not in the outbox`);
  return {
    violations,
    accounts: accounts.length,
    changes: changes.length,
    keys: ops.length,
    effects: effectsByKey,
    committedEvents: events.filter((e) => !e.undeliverable).map((e) => e.id),
  };
}

/**
 * A dead process's leases (jobs and webhook deliveries it had claimed) end 60 s after the claim. With no
 * process running, nobody holds a lease, so ending them now is the same as waiting that minute out.
 */
export async function endDeadLeases(db: Db): Promise<number> {
  const jobs = await db.query(
    "UPDATE jobs SET locked_until = NULL WHERE state = 'PENDING' AND locked_until IS NOT NULL RETURNING id",
  );
  const deliveries = await db.query(
    "UPDATE webhook_deliveries SET locked_until = NULL WHERE state = 'PENDING' AND locked_until IS NOT NULL RETURNING id",
  );
  return jobs.length + deliveries.length;
}

interface Window {
  data: { amount: { amount: number } }[];
  openingBalance: { amount: number };
  closingBalance: { amount: number };
  hasMore: boolean;
  nextCursor?: string;
}

/**
 * The statement identity through the API, `openingBalance + Σ amount = closingBalance`, over
 * `[from, to)` for each account (every page), and each window's opening equals the previous closing.
 */
export async function checkWindows(
  base: string,
  authorization: string,
  accountIds: string[],
  from: string,
  to: string,
  lastClosing: Map<string, number>,
): Promise<{ violations: string[]; windows: number; changes: number }> {
  const violations: string[] = [];
  let changes = 0;
  for (const accountId of accountIds) {
    let cursor: string | undefined;
    let sum = 0;
    let opening: number | undefined;
    let closing: number | undefined;
    for (;;) {
      const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=200${cursor ? `&cursor=${cursor}` : ""}`;
      const answer = await send(
        base,
        authorization,
        "GET",
        `/internal-accounts/${accountId}/balance-changes?${query}`,
      );
      if (answer.lost || answer.status !== 200) {
        violations.push(`balance-changes of ${accountId} [${from}, ${to}): ${JSON.stringify(answer)}`);
        break;
      }
      const page = answer.body as unknown as Window;
      if (opening !== undefined && page.openingBalance.amount !== opening)
        violations.push(`${accountId}: openingBalance differs between pages`);
      opening = page.openingBalance.amount;
      closing = page.closingBalance.amount;
      for (const change of page.data) sum += change.amount.amount;
      changes += page.data.length;
      if (!page.hasMore) break;
      cursor = page.nextCursor;
    }
    if (opening === undefined || closing === undefined) continue;
    if (opening + sum !== closing)
      violations.push(`${accountId} [${from}, ${to}): opening ${opening} + Σ ${sum} ≠ closing ${closing}`);
    const previous = lastClosing.get(accountId);
    if (previous !== undefined && previous !== opening)
      violations.push(`${accountId}: window opens at ${opening} but the previous one closed at ${previous}`);
    lastClosing.set(accountId, closing);
  }
  return { violations, windows: accountIds.length, changes };
}
