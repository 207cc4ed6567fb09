import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import type { Db, Tx } from "./db.js";
import { type Outcome, type Stepped, underSavepoint } from "./savepoint.js";
import {
  assertOutsideTransaction,
  inTransactionScope,
  type StatementWithCommit,
  sendWithCommit,
  transactionPreamble,
} from "./scope.js";
import { isRetryable } from "./sqlstate.js";

/** How transactions marked `grouped` share commits (issue 20: group commit, as TigerBeetle batches). */
export interface GroupCommitSettings {
  /** The most transactions one commit carries; 1 turns grouping off. */
  maxBatch: number;
  /** How many batches may be open at once (each holds one connection). */
  lanes: number;
}

/**
 * Commit groups formed so far, for /metrics and tests: how many, how many transactions they carried, how
 * many batches of several members had to run again one member after another (a member failed, or two
 * claimed one row), and how many times a batch or a member was retried after a deadlock or serialization
 * failure.
 */
export interface GroupCommitStats {
  batches: number;
  transactions: number;
  largestBatch: number;
  rerunOneByOne: number;
  retried: number;
}

/** What a member wrote for COMMIT to carry, and its answer, when the batch's members ran side by side. */
interface RanAlongside {
  value: unknown;
  withCommit: StatementWithCommit[];
}

/** Rows claimed by the members of one batch running side by side: row key to the member (its Tx) holding it. */
type Claims = Map<string, Tx>;

interface Waiting {
  /** Runs the transaction's own work in the caller's async context, beside its batch-mates, no savepoint. */
  alongside: (tx: Tx, claims: Claims) => Promise<RanAlongside>;
  /** Runs the transaction's own work in the caller's async context, under its savepoint. */
  step: (tx: Tx, savepoint: string) => Promise<Stepped>;
  attempts: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Attempts of one grouped transaction that failed on a deadlock or serialization failure of its own. */
const MAX_ATTEMPTS = 5;

/** Two members running side by side would lock one row: their batch runs again, one member after another. */
class RowClaimedInBatch extends Error {}

const memberAlongside = new AsyncLocalStorage<{ claims: Claims; member: Tx }>();

/**
 * Declares the rows a grouped transaction is about to lock (`internal_accounts:<id>`…), before it locks them.
 * Members of a batch run side by side in one transaction, where a row lock does not keep one member from
 * another: a row two members would both lock makes the batch run again with each member under its own
 * savepoint, one after another, so neither acts on what it read before the other wrote. Every statement a
 * grouped transaction uses to lock rows it then reads and changes must be preceded by this (the ledger's
 * locks are). Outside a batch running side by side it does nothing.
 */
export function claimRowsInBatch(keys: readonly string[]): void {
  const run = memberAlongside.getStore();
  if (!run) return;
  for (const key of keys) {
    const holder = run.claims.get(key);
    if (holder === undefined) run.claims.set(key, run.member);
    else if (holder !== run.member) throw new RowClaimedInBatch(`row ${key} is claimed by a batch-mate`);
  }
}

/**
 * A Db whose transactions marked `{ grouped: true }` may share one commit with others of this process:
 * while `lanes` batches are open, new ones wait, and the next batch takes up to `maxBatch` of them into one
 * transaction. The members first run side by side, their statements pipelined on the batch's connection and
 * what they send with COMMIT sent with the batch's; if any member fails, or two claim one row
 * (claimRowsInBatch), that transaction rolls back and the batch runs again one member after another, each
 * under its own savepoint. A member is answered only once its batch has committed; a member that fails (its
 * error, its deadlock) then rolls back to its savepoint alone and its batch-mates commit; a batch whose commit
 * fails answers that failure to every member, none of whose writes then exist. Members must therefore be
 * safe to run again (as a retried transaction is).
 * Other transactions, and grouped ones asking for an isolation level, run as `base` runs them.
 */
export function groupCommitting<D extends Db>(
  base: D,
  settings: GroupCommitSettings,
): D & { groupCommitStats(): GroupCommitStats } {
  const waiting: Waiting[] = [];
  const stats: GroupCommitStats = {
    batches: 0,
    transactions: 0,
    largestBatch: 0,
    rerunOneByOne: 0,
    retried: 0,
  };
  let open = 0;
  let scheduled = false;

  /**
   * The batch's members side by side in one transaction, their statements pipelined together: the outcomes,
   * or undefined when a batch of several must run one by one (a member failed or two claimed one row, and
   * none of the batch's writes exist).
   */
  const runAlongside = async (batch: Waiting[]): Promise<Outcome[] | undefined> => {
    let attempts = 0;
    try {
      return await base.transaction(async (tx) => {
        if (++attempts > 1) stats.retried += 1;
        const claims: Claims = new Map();
        const ran = await Promise.allSettled(batch.map((member) => member.alongside(tx, claims)));
        const failed = ran.find((outcome) => outcome.status === "rejected");
        if (failed) throw failed.reason;
        const values = ran.map((outcome) => (outcome as PromiseFulfilledResult<RanAlongside>).value);
        for (const { withCommit } of values)
          for (const statement of withCommit)
            await sendWithCommit(statement.tx, statement.text, statement.params);
        return values.map(({ value }) => ({ ok: true as const, value }));
      });
    } catch (error) {
      if (batch.length > 1) return undefined;
      return [{ ok: false, error }];
    }
  };

  /** The batch's members one after another, each under its own savepoint: a failure stays with its member. */
  const runOneByOne = (batch: Waiting[]): Promise<Outcome[]> => {
    let attempts = 0;
    return base.transaction(async (tx) => {
      if (++attempts > 1) stats.retried += 1;
      const stepped: Stepped[] = [];
      for (const [index, member] of batch.entries()) stepped.push(await member.step(tx, `member_${index}`));
      await Promise.all(stepped.map((member) => member.released));
      return stepped.map((member) => member.outcome);
    });
  };

  const runBatch = async (batch: Waiting[]): Promise<void> => {
    stats.batches += 1;
    stats.transactions += batch.length;
    stats.largestBatch = Math.max(stats.largestBatch, batch.length);
    let outcomes: Outcome[] | undefined;
    try {
      outcomes = await runAlongside(batch);
      if (!outcomes) {
        stats.rerunOneByOne += 1;
        outcomes = await runOneByOne(batch);
      }
    } catch (error) {
      for (const member of batch) member.reject(error);
      return;
    }
    for (const [index, member] of batch.entries()) {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) member.resolve(outcome.value);
      else if (isRetryable(outcome.error) && member.attempts < MAX_ATTEMPTS) {
        member.attempts += 1;
        stats.retried += 1;
        waiting.push(member);
      } else member.reject(outcome.error);
    }
  };

  // Batches start in the async context the Db was opened in, never in a caller's: a caller's transaction
  // preamble (its idempotency claim) belongs to its own member, not to the batch's transaction.
  const startBatches = AsyncResource.bind((): void => {
    scheduled = false;
    while (open < settings.lanes && waiting.length > 0) {
      const batch = waiting.splice(0, settings.maxBatch);
      open += 1;
      void runBatch(batch).finally(() => {
        open -= 1;
        schedule();
      });
    }
  });
  // Deferred to the next turn of the event loop, so the transactions asked for in one turn (a burst of
  // requests read from one socket read) start together.
  const schedule = (): void => {
    if (scheduled || waiting.length === 0 || open >= settings.lanes) return;
    scheduled = true;
    setImmediate(startBatches);
  };

  return {
    ...base,
    transaction: (fn, options) => {
      if (!options?.grouped || options.isolation || settings.maxBatch <= 1) {
        // Without the mark: a base that groups too (a Db wrapped twice) runs it alone as well.
        const { grouped: _alone, ...alone } = options ?? {};
        return base.transaction(fn, alone);
      }
      assertOutsideTransaction("db.transaction");
      const preamble = transactionPreamble();
      // In the caller's async context: its work runs as if the caller had opened the transaction. (One
      // resource, entered by hand: AsyncResource.bind costs a deprecation wrapper per call on Node 20.)
      const caller = new AsyncResource("paysvc.groupedTransaction");
      const step = (tx: Tx, savepoint: string) =>
        caller.runInAsyncScope(() =>
          underSavepoint(tx, savepoint, async (member) => {
            if (preamble) await preamble(member);
            return fn(member);
          }),
        );
      const alongside = (tx: Tx, claims: Claims) =>
        caller.runInAsyncScope(() => runAlongsideMember(tx, claims));
      const runAlongsideMember = async (tx: Tx, claims: Claims): Promise<RanAlongside> => {
        // A Tx of its own: what is buffered per transaction (the outbox's pending events) stays the member's.
        const member: Tx = { inTransaction: true, query: (text, params) => tx.query(text, params) };
        let withCommit: StatementWithCommit[] = [];
        const value = await memberAlongside.run({ claims, member }, () =>
          inTransactionScope(
            async () => {
              if (preamble) await preamble(member);
              return fn(member);
            },
            async (statements) => {
              withCommit = statements;
            },
          ),
        );
        return { value, withCommit };
      };
      return new Promise((resolve, reject) => {
        waiting.push({ alongside, step, attempts: 1, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    groupCommitStats: () => ({ ...stats }),
  };
}

/** Grouping as configured unless the environment says otherwise (docs/decisions.md "Group commit"). */
export const DEFAULT_GROUP_COMMIT: GroupCommitSettings = { maxBatch: 32, lanes: 8 };

/** PAYSVC_GROUP_COMMIT_MAX (1 to 1000; 1 turns grouping off) and PAYSVC_GROUP_COMMIT_LANES (1 to 100). */
export function groupCommitSettingsFrom(env: NodeJS.ProcessEnv): GroupCommitSettings {
  const read = (name: string, fallback: number, max: number): number => {
    const text = env[name];
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new Error(`invalid configuration: ${name} must be a whole number from 1 to ${max}, not ${text}`);
    return value;
  };
  return {
    maxBatch: read("PAYSVC_GROUP_COMMIT_MAX", DEFAULT_GROUP_COMMIT.maxBatch, 1000),
    lanes: read("PAYSVC_GROUP_COMMIT_LANES", DEFAULT_GROUP_COMMIT.lanes, 100),
  };
}
