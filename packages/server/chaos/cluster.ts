import { join } from "node:path";
import { type Paysvc, startPaysvc } from "../bench/webhooks.js";
import type { Db } from "../src/core/db/db.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";

/**
 * The real `paysvc start` processes of a chaos run (`node --import tsx src/main.ts start`, one Node
 * process each, so SIGKILL kills the server itself). On PostgreSQL two processes share one database; on
 * PGlite only one process may open a data directory, so there is one.
 */
export class Cluster {
  private readonly procs: (Paysvc | undefined)[];
  kills = 0;
  starts = 0;

  constructor(
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
    /** Node arguments that run paysvc (startPaysvc's `entry`). */
    readonly entry?: readonly string[],
  ) {
    this.procs = Array.from({ length: databaseUrl ? 2 : 1 }, () => undefined);
  }

  get size(): number {
    return this.procs.length;
  }

  /** Base URLs of the processes that are up now. */
  liveUrls(): string[] {
    return this.procs.flatMap((p) => (p ? [p.url] : []));
  }

  private readonly starting = new Map<number, Promise<void>>();

  /** Starts process `index` unless it runs or is starting already. */
  start(index: number): Promise<void> {
    if (this.procs[index]) return Promise.resolve();
    const pending = this.starting.get(index);
    if (pending) return pending;
    const started = startPaysvc(this.dataDir, this.databaseUrl, this.entry)
      .then((proc) => {
        this.procs[index] = proc;
        this.starts++;
      })
      .finally(() => this.starting.delete(index));
    this.starting.set(index, started);
    return started;
  }

  /**
   * Starts every stopped process: the very first one alone (the first start of a data dir creates the
   * sandbox platform and its credentials), later ones together.
   */
  async startAll(): Promise<void> {
    if (this.starts === 0) await this.start(0);
    await Promise.all(this.procs.map((_p, i) => this.start(i)));
  }

  /** SIGKILL: no drain, no clean close; whatever was in flight is cut. */
  async kill(index: number): Promise<void> {
    const proc = this.procs[index];
    if (!proc) return;
    this.procs[index] = undefined;
    await proc.stop("SIGKILL");
    this.kills++;
  }

  /** SIGTERM every process (in-flight requests finish, then the database closes). */
  async stopAll(): Promise<void> {
    const running = this.procs.filter((p): p is Paysvc => p !== undefined);
    this.procs.fill(undefined);
    await Promise.all(running.map((p) => p.stop("SIGTERM")));
  }

  /** SIGKILL everything (cleanup). */
  async killAll(): Promise<void> {
    const running = this.procs.filter((p): p is Paysvc => p !== undefined);
    this.procs.fill(undefined);
    await Promise.all(running.map((p) => p.stop("SIGKILL")));
  }

  /** Opens the run's database directly; on PGlite only while no process runs. */
  async openDb(): Promise<Db> {
    return this.databaseUrl
      ? openPostgres(this.databaseUrl, 2)
      : openPglite({ dataDir: join(this.dataDir, "db") });
  }
}
