import { AsyncResource } from "node:async_hooks";
import type { Db, Tx } from "./db.js";
import { type Stepped, underSavepoint } from "./savepoint.js";
import { assertOutsideTransaction, transactionPreamble } from "./scope.js";
import { isRetryable } from "./sqlstate.js";

/** How transactions marked `grouped` share commits (issue 20: group commit, as TigerBeetle batches). */
export interface GroupCommitSettings {
  /** The most transactions one commit carries; 1 turns grouping off. */
  maxBatch: number;
  /** How many batches may be open at once (each holds one connection). */
  lanes: number;
}

/** Commit groups formed so far, for /metrics and tests: how many, and how many transactions they carried. */
export interface GroupCommitStats {
  batches: number;
  transactions: number;
  largestBatch: number;
}

interface Waiting {
  /** Runs the transaction's own work in the caller's async context, under its savepoint. */
  step: (tx: Tx, savepoint: string) => Promise<Stepped>;
  attempts: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Attempts of one grouped transaction that failed on a deadlock or serialization failure of its own. */
const MAX_ATTEMPTS = 5;

/**
 * A Db whose transactions marked `{ grouped: true }` may share one commit with others of this process:
 * while `lanes` batches are open, new ones wait, and the next batch takes up to `maxBatch` of them into one
 * transaction, each member under its own savepoint. A member is answered only once its batch has committed;
 * a member that fails (its error, its deadlock) rolls back to its savepoint alone and its batch-mates commit;
 * a batch whose commit fails answers that failure to every member, none of whose writes then exist.
 * Other transactions, and grouped ones asking for an isolation level, run as `base` runs them.
 */
export function groupCommitting<D extends Db>(
  base: D,
  settings: GroupCommitSettings,
): D & { groupCommitStats(): GroupCommitStats } {
  const waiting: Waiting[] = [];
  const stats: GroupCommitStats = { batches: 0, transactions: 0, largestBatch: 0 };
  let open = 0;
  let scheduled = false;

  const runBatch = async (batch: Waiting[]): Promise<void> => {
    stats.batches += 1;
    stats.transactions += batch.length;
    stats.largestBatch = Math.max(stats.largestBatch, batch.length);
    let outcomes: Stepped["outcome"][];
    try {
      outcomes = await base.transaction(async (tx) => {
        const stepped: Stepped[] = [];
        for (const [index, member] of batch.entries()) stepped.push(await member.step(tx, `member_${index}`));
        await Promise.all(stepped.map((member) => member.released));
        return stepped.map((member) => member.outcome);
      });
    } catch (error) {
      for (const member of batch) member.reject(error);
      return;
    }
    for (const [index, member] of batch.entries()) {
      const outcome = outcomes[index] as Stepped["outcome"];
      if (outcome.ok) member.resolve(outcome.value);
      else if (isRetryable(outcome.error) && member.attempts < MAX_ATTEMPTS) {
        member.attempts += 1;
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
      // Bound to the caller's async context: its work runs as if the caller had opened the transaction.
      const step = AsyncResource.bind((tx: Tx, savepoint: string) =>
        underSavepoint(tx, savepoint, async (member) => {
          if (preamble) await preamble(member);
          return fn(member);
        }),
      );
      return new Promise((resolve, reject) => {
        waiting.push({ step, attempts: 1, resolve: resolve as (value: unknown) => void, reject });
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
