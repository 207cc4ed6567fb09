import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type JobHandler, JobRunner, scheduleJob } from "../../src/core/jobs/jobs.js";
import { startServer, type TestServer } from "../harness.js";

const ran: string[] = [];
const record: JobHandler = async ({ deps, job, finish }) => {
  await deps.db.transaction(async (tx) => {
    ran.push(String(job.payload.name));
    await finish(tx);
  });
};
const failing: JobHandler = async () => {
  throw new Error("receiver down");
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ jobHandlers: { "test.record": record, "test.fail": failing } });
  await server.jobs.stop();
});
afterAll(() => server.close());

const schedule = (name: string, runAt: Date, kind = "test.record", platformId = server.platform.platformId) =>
  server.db.transaction((tx) =>
    scheduleJob(tx, { platformId, kind, payload: { name }, runAt, now: new Date() }),
  );
const stateOf = async (id: string) =>
  (
    await server.db.query<{ state: string; attempts: number }>(
      "SELECT state, attempts FROM jobs WHERE id = $1",
      [id],
    )
  )[0];

describe("background jobs", () => {
  test("a due job runs once and is marked DONE in the handler's transaction", async () => {
    const id = await schedule("due", new Date(Date.now() - 1000));
    await server.jobs.runDue();
    await server.jobs.runDue();
    expect(ran.filter((n) => n === "due")).toEqual(["due"]);
    expect(await stateOf(id)).toEqual({ state: "DONE", attempts: 1 });
  });

  test("a job scheduled in a transaction that rolls back never exists", async () => {
    await expect(
      server.db.transaction(async (tx) => {
        await scheduleJob(tx, {
          platformId: server.platform.platformId,
          kind: "test.record",
          payload: { name: "ghost" },
          runAt: new Date(0),
          now: new Date(),
        });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await server.jobs.runDue();
    expect(ran).not.toContain("ghost");
  });

  test("a job is due by its platform's clock: advancing the sandbox clock makes it run", async () => {
    const other = await server.newPlatform();
    const runAt = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
    await schedule("future", runAt, "test.record", other.platformId);
    await server.jobs.runDue();
    expect(ran).not.toContain("future");
    await server.client.post("/sandbox/clock/advance", { to: runAt.toISOString() }, { auth: other });
    await server.jobs.runDue();
    expect(ran).toContain("future");
  });

  test("a failing job is retried later with backoff and becomes FAILED after its last attempt", async () => {
    const runner = new JobRunner(
      server.deps,
      { "test.fail": failing },
      {
        maxAttempts: 2,
        platformIds: server.platformIds,
      },
    );
    const id = await schedule("flaky", new Date(Date.now() - 1000), "test.fail");
    await runner.runDue();
    expect(await stateOf(id)).toEqual({ state: "PENDING", attempts: 1 });
    await server.db.query("UPDATE jobs SET run_at = now() - interval '1 second' WHERE id = $1", [id]);
    await runner.runDue();
    expect(await stateOf(id)).toEqual({ state: "FAILED", attempts: 2 });
  });

  test("several runners share the work without running a job twice", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `shared-${i}`);
    for (const name of names) await schedule(name, new Date(Date.now() - 1000));
    const runners = [1, 2, 3].map(
      () =>
        new JobRunner(server.deps, { "test.record": record }, { batch: 5, platformIds: server.platformIds }),
    );
    for (let round = 0; round < 8; round++) await Promise.all(runners.map((r) => r.runDue()));
    expect(ran.filter((n) => n.startsWith("shared-")).sort()).toEqual([...names].sort());
  });
});
