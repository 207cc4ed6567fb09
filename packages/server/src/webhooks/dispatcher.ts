import type { Deps } from "../core/deps.js";
import type { JobQueue, QueueContext, QueueWorker } from "../core/jobs/jobs.js";
import { countDeliveryAttempt } from "../core/metrics/metrics.js";
import { type ClaimedDelivery, claimDue } from "./claim.js";
import { INITIAL_SENDS_PER_PLATFORM, PlatformConcurrency } from "./concurrency.js";
import { type AttemptRecord, attemptRecord, platformNow, recordAttempts, sendDelivery } from "./delivery.js";
import { logFailedAttempt } from "./failed-attempt-log.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./sender.js";

// A delivery row is its own job (docs/decisions.md "Webhook delivery at database speed (issue 20)"): each
// runner's dispatcher claims due rows in bulk under a lease, sends them concurrently, and records the
// attempts in bulk as they end. One claim and one record are in flight at a time; whatever becomes ready
// meanwhile goes into the next one, so the statements per event fall as the load rises.

/** Sends in flight per runner: bounds memory, sockets and the work a crash hands to the lease. */
export const MAX_IN_FLIGHT = 256;
/**
 * While sends are in flight, a claim waits for this many to end and a record for this many ended attempts
 * (or BATCH_WAIT_MS): a claim and a record each cost about what 16 rows do (issue 20's measurements).
 */
const CLAIM_BATCH = 64;
const RECORD_BATCH = 64;
const BATCH_WAIT_MS = 10;
/** While idle the dispatcher looks for due rows at least this often (the runner's poll, if shorter). */
const IDLE_POLL_MS = 100;
/** After a failed claim or record, the next try waits this long. */
const RETRY_MS = 1_000;

/** Sends one claimed delivery and answers its record; a cleared endpoint makes it UNDELIVERABLE, unsent. */
async function deliver(deps: Deps, delivery: ClaimedDelivery): Promise<AttemptRecord> {
  const url = delivery.webhook_endpoint;
  if (!url)
    return {
      deliveryId: delivery.id,
      lease: delivery.lease,
      outcome: { state: "UNDELIVERABLE" },
      at: platformNow(deps, delivery),
    };
  const result = await sendDelivery(deps, { ...delivery, webhook_endpoint: url });
  const record = attemptRecord(delivery, delivery.lease, { url, result }, platformNow(deps, delivery));
  logFailedAttempt(deps.logger, delivery, record);
  countDeliveryAttempt(deps, record);
  return record;
}

/** One runner's dispatcher: see the note at the top of this file. */
class Dispatcher implements QueueWorker {
  private readonly concurrency = new PlatformConcurrency();
  private inFlight = 0;
  /** Sends ended since the last claim began: the room a claim now would fill. */
  private freed = 0;
  /** The last claim found nothing due with every platform free to take more: only the poll looks again. */
  private drained = false;
  /** Ended attempts waiting for the next record. */
  private ended: AttemptRecord[] = [];
  private claiming: Promise<void> | null = null;
  private recording: Promise<void> | null = null;
  private readonly timers: Record<"poll" | "claim" | "record", NodeJS.Timeout | null> = {
    poll: null,
    claim: null,
    record: null,
  };
  private pollMs: number | null = null;
  private stopped = false;
  private claimed = 0;
  /** runDue() calls so far, and the latest one a claim that found nothing has answered. */
  private asked = 0;
  private answered = 0;
  private readonly waiting: { asked: number; claimedBefore: number; resolve: (ran: number) => void }[] = [];

  constructor(private readonly context: QueueContext) {}

  runDue(): Promise<number> {
    const asked = ++this.asked;
    return new Promise((resolve) => {
      this.waiting.push({ asked, claimedBefore: this.claimed, resolve });
      this.pump(true);
    });
  }

  start(pollMs: number): void {
    this.stopped = false;
    this.pollMs = Math.min(pollMs, IDLE_POLL_MS);
    this.pump(true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pollMs = null;
    this.clear("poll");
    this.clear("claim");
    this.record();
    // Sends end within their total timeout; a record that keeps failing is left to the leases.
    const { totalTimeoutMs } = this.context.deps.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS;
    const deadline = Date.now() + totalTimeoutMs + 5_000;
    while (this.busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private busy(): boolean {
    return this.claiming !== null || this.recording !== null || this.inFlight > 0 || this.ended.length > 0;
  }

  private clear(timer: keyof Dispatcher["timers"]): void {
    const pending = this.timers[timer];
    if (pending) clearTimeout(pending);
    this.timers[timer] = null;
  }

  /** Runs `then` after `ms`, unless that timer is already set. */
  private after(timer: keyof Dispatcher["timers"], ms: number, then: () => void): void {
    this.timers[timer] ??= setTimeout(() => {
      this.timers[timer] = null;
      then();
    }, ms);
  }

  /**
   * Claims due deliveries into the room there is, one claim at a time. While sends are in flight it
   * waits for CLAIM_BATCH of them to end (or BATCH_WAIT_MS), so a claim fills more than a slot or two.
   */
  private pump(now = false): void {
    if (this.claiming || (this.stopped && this.waiting.length === 0)) return;
    const room = MAX_IN_FLIGHT - this.inFlight - this.ended.length;
    if (room <= 0) return;
    if (!now && this.drained) return;
    if (!now && this.inFlight + this.ended.length > 0 && this.freed < CLAIM_BATCH) {
      this.after("claim", BATCH_WAIT_MS, () => this.pump(true));
      return;
    }
    this.clear("claim");
    this.clear("poll");
    this.freed = 0;
    const asked = this.asked;
    const deps = this.context.deps;
    const rooms = this.concurrency.rooms();
    const scope = this.context.platformIds;
    this.claiming = claimDue(deps, { limit: room, rooms, defaultRoom: INITIAL_SENDS_PER_PLATFORM, scope })
      .then(
        (claimed) => {
          this.claiming = null;
          this.claimed += claimed.length;
          for (const delivery of claimed) this.send(delivery);
          // A platform with no room may have due rows: its ending sends claim again.
          this.drained = claimed.length === 0 && ![...rooms.values()].includes(0);
          if (claimed.length > 0 || this.asked > asked) return this.pump(this.asked > asked);
          // Nothing more is due for the runDue() calls so far, once what is in flight ends (if every
          // platform had room; else its ending sends claim again and the last claim answers).
          if (this.inFlight === 0 || this.drained) this.answered = asked;
          this.settle();
          if (this.pollMs !== null && !this.stopped) this.after("poll", this.pollMs, () => this.pump(true));
        },
        (error: unknown) => {
          this.claiming = null;
          deps.logger.error({ err: error }, "webhook delivery claim failed");
          this.after("poll", RETRY_MS, () => this.pump(true));
        },
      )
      .catch((error: unknown) => deps.logger.error({ err: error }, "webhook dispatcher failed"));
  }

  private send(delivery: ClaimedDelivery): void {
    const platformId = delivery.platform_id;
    this.inFlight += 1;
    this.concurrency.started(platformId);
    deliver(this.context.deps, delivery)
      .then(
        (record) => {
          this.ended.push(record);
          this.concurrency.ended(platformId, record.attempt?.result);
        },
        (error: unknown) => {
          // Unrecorded, the delivery stays leased: it is tried again once its lease runs out.
          this.context.deps.logger.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed");
          this.concurrency.ended(platformId, undefined);
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        this.freed += 1;
        this.record();
        this.pump();
      });
  }

  /**
   * Records ended attempts in one statement, one record at a time (the next takes what ended meanwhile).
   * While sends are in flight it waits for RECORD_BATCH of them (or BATCH_WAIT_MS).
   */
  private record(now = false): void {
    if (this.recording || this.ended.length === 0) {
      this.settle();
      return;
    }
    if (!now && !this.stopped && this.inFlight > 0 && this.ended.length < RECORD_BATCH) {
      this.after("record", BATCH_WAIT_MS, () => this.record(true));
      return;
    }
    this.clear("record");
    const batch = this.ended;
    this.ended = [];
    const deps = this.context.deps;
    this.recording = recordAttempts(deps.db, batch).then(
      () => {
        this.recording = null;
        this.record();
        this.pump();
      },
      (error: unknown) => {
        // Recording the same batch again writes it once: it applies only under the leases still held.
        deps.logger.error({ err: error }, "recording webhook attempts failed");
        this.ended = [...batch, ...this.ended];
        setTimeout(() => {
          this.recording = null;
          this.record(true);
        }, RETRY_MS);
      },
    );
    this.recording.catch((error: unknown) => deps.logger.error({ err: error }, "webhook dispatcher failed"));
  }

  /** Answers the runDue() calls that a claim finding nothing has answered, once all they ran is recorded. */
  private settle(): void {
    if (this.busy()) return;
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const waiter = this.waiting[i];
      if (!waiter || waiter.asked > this.answered) continue;
      this.waiting.splice(i, 1);
      waiter.resolve(this.claimed - waiter.claimedBefore);
    }
  }
}

/** The queue of webhook deliveries: a runner given it dispatches its platforms' due deliveries. */
export const deliveryQueue: JobQueue = {
  open: (context) => new Dispatcher(context),
};
