import { describe, expect, inject, test } from "vitest";
import { formatReport, runChaos } from "../../chaos/chaos.js";
import { paysvcEntry } from "../paysvc-process.js";

/**
 * Issue 9 part 3, the CI version of `npm run chaos`: a few rounds of mixed load against real `paysvc start`
 * processes, SIGKILLed at random moments and restarted. With DATABASE_URL: two processes on a fresh
 * PostgreSQL database next to it. Without: PGlite allows one process per data directory, so one process
 * is killed and restarted (as in test/webhooks/fault.test.ts). Process starts dominate its time (7 on
 * PostgreSQL), so the timeout is generous for a loaded machine.
 */
describe("crash consistency under SIGKILL (npm run chaos, short)", () => {
  test("after every round: balances are the sum of their changes, statement windows add up, every key has one effect, every committed event is delivered and no rolled-back one", async () => {
    const dbTemplate = inject("dbTemplate");
    const report = await runChaos({
      ...(dbTemplate.kind === "postgres"
        ? { adminUrl: dbTemplate.adminUrl, databaseTemplate: dbTemplate.templateName }
        : { dataDirTemplate: inject("paysvcTemplate").dataDir }),
      entry: await paysvcEntry(),
      rounds: 2,
      seed: 20251013,
      roundMs: 1_500,
      workers: 4,
      holders: 2,
    });
    console.info(formatReport(report));
    expect(report.violations).toEqual([]);
    expect(report.rounds).toBe(2);
    expect(report.kills).toBeGreaterThanOrEqual(2);
    expect(report.requests).toBeGreaterThan(0);
    expect(report.windowsChecked).toBeGreaterThan(0);
    expect(report.eventsChecked).toBeGreaterThan(0);
    expect(report.processes).toBe(process.env.DATABASE_URL ? 2 : 1);
  }, 300_000);
});
