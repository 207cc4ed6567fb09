import { randomUUID } from "node:crypto";
import type { Tx } from "../db/db.js";
import { sendWithCommit } from "../db/scope.js";
import type { Deps } from "../deps.js";

export interface Job {
  id: string;
  platformId: string;
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  attempts: number;
}

export interface JobContext {
  deps: Deps;
  job: Job;
  /** Marks the job done inside the handler's own transaction, so its effect and completion commit together. */
  finish(tx: Tx): Promise<void>;
  /** Runs the job again at `runAt` (platform time), inside the handler's transaction. */
  reschedule(tx: Tx, runAt: Date): Promise<void>;
}

/** What a queue's worker works with: the runner's dependencies and scope. */
export interface QueueContext {
  deps: Deps;
  /** Only these platforms' work, read at every claim (JobRunner's `platformIds`). */
  platformIds?: ReadonlySet<string>;
}

/** One runner's worker over a queue: it claims, runs and records the queue's due work in bulk. */
export interface QueueWorker {
  /** Runs everything due now and resolves once it is recorded; answers how many items ran. */
  runDue(): Promise<number>;
  /** Works in the background: due work is picked up within `pollMs` while idle, and at once while busy. */
  start(pollMs: number): void;
  /** Stops claiming and waits for the work in progress to be recorded. */
  stop(): Promise<void>;
}

/**
 * Work kept in its area's own table instead of `jobs` (a webhook delivery row is its own job): claimed
 * and recorded in bulk by a worker of each runner, so it needs no row in `jobs` and no turn in its batch.
 */
export interface JobQueue {
  open(context: QueueContext): QueueWorker;
}

/** A job handler: idempotent (a crash after its commit and before the lease ends can run it again). */
export type JobHandler = ((context: JobContext) => Promise<void>) & {
  /** The queue a runner given this handler also works (see `withQueue`). */
  readonly queue?: JobQueue;
};

/**
 * A handler that brings a queue with it: runners are built from the handler table (src/jobs.ts), so this
 * is how an area's queue reaches every runner without a second registry.
 */
export function withQueue(handler: (context: JobContext) => Promise<void>, queue: JobQueue): JobHandler {
  return Object.assign(handler, { queue });
}

/** Schedules work inside the caller's transaction: it exists only if the change that needs it commits. */
export async function scheduleJob(
  tx: Tx,
  job: NewJob,
  /** Send the insert with the transaction's COMMIT (sendWithCommit): for a job nothing reads before it. */
  options: { withCommit?: boolean } = {},
): Promise<string> {
  const id = randomUUID();
  const params = [id, job.platformId, job.kind, job.payload, job.runAt, job.now];
  if (options.withCommit) await sendWithCommit(tx, INSERT_JOB, params);
  else await tx.query(INSERT_JOB, params);
  return id;
}

type NewJob = { platformId: string; kind: string; payload: Record<string, unknown>; runAt: Date; now: Date };

const INSERT_JOB = `INSERT INTO jobs (id, platform_id, kind, payload, run_at, state, attempts, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'PENDING', 0, $6, $6)`;

interface JobRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  kind: string;
  payload: Record<string, unknown>;
  run_at: Date;
  attempts: number;
}

/**
 * Claims due jobs one by one with a lease (`FOR UPDATE SKIP LOCKED`, so concurrent runners never take
 * the same job) and runs each handler outside the claim, since PGlite has one session and a delivery may wait
 * on the network. A failed attempt is retried with backoff; after `maxAttempts` the job is FAILED.
 */
export class JobRunner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private readonly workers: QueueWorker[];

  constructor(
    private readonly deps: Deps,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly options: {
      pollMs?: number;
      batch?: number;
      leaseMs?: number;
      maxAttempts?: number;
      /**
       * Runs only the jobs of these platforms (read at every claim). Several runners over one database,
       * each with its own clock, must not run each other's jobs: test files share one database this way.
       */
      platformIds?: ReadonlySet<string>;
    } = {},
  ) {
    const queues = new Set(Object.values(handlers).flatMap((h) => (h.queue ? [h.queue] : [])));
    const context: QueueContext = options.platformIds ? { deps, platformIds: options.platformIds } : { deps };
    this.workers = [...queues].map((queue) => queue.open(context));
  }

  /** Polls every `pollMs`; after a batch that ran jobs it looks again at once, so a backlog drains at full speed. */
  start(): void {
    const tick = (delayMs: number) => {
      this.timer = setTimeout(async () => {
        const ran = await this.runJobs().catch((error: unknown) => {
          this.deps.logger.error({ err: error }, "job runner tick failed");
          return 0;
        });
        if (this.timer) tick(ran > 0 ? 0 : (this.options.pollMs ?? 500));
      }, delayMs);
    };
    tick(this.options.pollMs ?? 500);
    for (const worker of this.workers) worker.start(this.options.pollMs ?? 500);
  }

  /** Stops polling and waits for the batch in progress and the queues' work in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.all([this.running?.catch(() => undefined), ...this.workers.map((w) => w.stop())]);
  }

  /**
   * Runs every job due now (one batch) and the queues' due work; returns how many ran. Tests call it to
   * make progress deterministic.
   */
  runDue(): Promise<number> {
    return Promise.all([this.runJobs(), ...this.workers.map((w) => w.runDue())]).then((counts) =>
      counts.reduce((sum, n) => sum + n, 0),
    );
  }

  /** One batch of the jobs table, after the batch in progress (batches never overlap). */
  private runJobs(): Promise<number> {
    const run = (this.running ?? Promise.resolve(0)).then(() => this.runBatch());
    this.running = run.catch(() => 0);
    return run;
  }

  /** Claims and runs due jobs one at a time, so each job's lease starts when it runs, up to `batch` jobs. */
  private async runBatch(): Promise<number> {
    const seen = new Set<string>();
    while (seen.size < (this.options.batch ?? 50)) {
      const [row] = await this.claimOne();
      // A job this batch already ran comes back only when its handler left it for later: stop there.
      if (!row || seen.has(row.id)) break;
      seen.add(row.id);
      await this.runOne(row);
    }
    return seen.size;
  }

  private async claimOne(): Promise<JobRow[]> {
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + (this.options.leaseMs ?? 60_000));
    const scope = this.options.platformIds;
    if (scope?.size === 0) return [];
    return this.deps.db.transaction((tx) =>
      tx.query<JobRow>(
        `UPDATE jobs SET locked_until = $2, attempts = attempts + 1 WHERE id IN (
           SELECT j.id FROM jobs j JOIN platforms p ON p.id = j.platform_id
           WHERE j.state = 'PENDING' AND j.run_at <= $1::timestamptz + p.clock_offset_ms * interval '1 millisecond'
             AND (j.locked_until IS NULL OR j.locked_until < $1)
             ${scope ? "AND j.platform_id = ANY($3::text[])" : ""}
           ORDER BY j.run_at LIMIT 1 FOR UPDATE OF j SKIP LOCKED)
         RETURNING id, platform_id, kind, payload, run_at, attempts`,
        scope ? [now, lease, [...scope]] : [now, lease],
      ),
    );
  }

  private async runOne(row: JobRow): Promise<void> {
    const job: Job = {
      id: row.id,
      platformId: row.platform_id,
      kind: row.kind,
      payload: row.payload,
      runAt: row.run_at,
      attempts: row.attempts,
    };
    const handler = this.handlers[job.kind];
    const finish = async (tx: Tx) => {
      await tx.query("UPDATE jobs SET state = 'DONE', locked_until = NULL, updated_at = $2 WHERE id = $1", [
        job.id,
        this.deps.clock.now(),
      ]);
    };
    const reschedule = async (tx: Tx, runAt: Date) => {
      await tx.query("UPDATE jobs SET run_at = $2, locked_until = NULL, updated_at = $3 WHERE id = $1", [
        job.id,
        runAt,
        this.deps.clock.now(),
      ]);
    };
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler({ deps: this.deps, job, finish, reschedule });
    } catch (error) {
      const failed = job.attempts >= (this.options.maxAttempts ?? 10);
      const backoffMs = Math.min(30 * 60_000, 1000 * 2 ** job.attempts);
      this.deps.logger.error(
        { err: error, jobId: job.id, kind: job.kind, attempts: job.attempts },
        "job failed",
      );
      await this.deps.db.query(
        `UPDATE jobs SET state = $2, locked_until = NULL, run_at = run_at + $3 * interval '1 millisecond', last_error = $4, updated_at = $5
         WHERE id = $1`,
        [
          job.id,
          failed ? "FAILED" : "PENDING",
          backoffMs,
          error instanceof Error ? error.message : String(error),
          this.deps.clock.now(),
        ],
      );
    }
  }
}
