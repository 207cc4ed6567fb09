import { once } from "node:events";
import { access, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import { paysvcBuilt, runPaysvc } from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

/** A port nothing listens on: bound to find it, then released (connections to it are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The whole of stderr is one line: no stack trace, no usage dump. */
const oneLine = (stderr: string) => expect(stderr.trimEnd().split("\n")).toHaveLength(1);

describe("a bad database URL", () => {
  test("a malformed DATABASE_URL: exit 1, one line saying what is wrong, the password never shown", async () => {
    const result = await runPaysvc(["migrate"], {
      env: { DATABASE_URL: "postgres://paysvc:hunter2@db.example:five432/paysvc" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "paysvc: invalid configuration: DATABASE_URL has a port that is not a number; expected postgres://user:password@host:5432/database\n",
    );
    expect(result.stdout).toBe("");
  }, 30_000);

  test("a DATABASE_URL of another scheme: exit 1, one line naming the scheme", async () => {
    const result = await runPaysvc(["start", "--port", "0"], {
      env: { DATABASE_URL: "mysql://root@localhost/db" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^paysvc: invalid configuration: DATABASE_URL is a mysql: URL, not a PostgreSQL one;/,
    );
    oneLine(result.stderr);
  }, 30_000);

  test("an unreachable DATABASE_URL: exit 1, one line naming the host and port, the password never shown", async () => {
    const port = await closedPort();
    const result = await runPaysvc(["migrate"], {
      env: { DATABASE_URL: `postgres://paysvc:hunter2@127.0.0.1:${port}/paysvc` },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `paysvc: cannot use PostgreSQL at paysvc@127.0.0.1:${port}/paysvc (DATABASE_URL): connection refused; is PostgreSQL running there?\n`,
    );
  }, 30_000);

  test("a database that does not exist on a running PostgreSQL: exit 1, one line saying so", async () => {
    const server = await postgresRefusing("3D000", 'database "paysvc_no_such_database" does not exist');
    try {
      const port = (server.address() as { port: number }).port;
      const result = await runPaysvc(["migrate"], {
        env: { DATABASE_URL: `postgres://paysvc@127.0.0.1:${port}/paysvc_no_such_database` },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^paysvc: cannot use PostgreSQL at .*\/paysvc_no_such_database \(DATABASE_URL\): the database does not exist/,
      );
      oneLine(result.stderr);
    } finally {
      server.close();
    }
  }, 30_000);
});

/**
 * A server speaking the start of PostgreSQL's wire protocol that refuses every connection with one
 * ErrorResponse (SQLSTATE `code`), as a real server does for a missing database: the same on both test runs.
 */
async function postgresRefusing(code: string, message: string): Promise<Server> {
  const field = (tag: string, value: string) => Buffer.concat([Buffer.from(tag), Buffer.from(`${value}\0`)]);
  const fields = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", code),
    field("M", message),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  const error = Buffer.concat([Buffer.from("E"), length, fields]);
  const server = createServer((socket) => {
    socket.once("data", () => socket.end(error));
    socket.on("error", () => undefined);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

describe("a port in use", () => {
  let holder: Server;
  let port: number;
  let parent: string;
  beforeAll(async () => {
    holder = createServer();
    holder.listen(0, "127.0.0.1");
    await once(holder, "listening");
    port = (holder.address() as { port: number }).port;
    parent = await mkdtemp(join(tmpdir(), "paysvc-port-"));
  });
  afterAll(async () => {
    holder.close();
    await rm(parent, { recursive: true, force: true });
  });

  test("a port in use: exit 1 with one line naming it, before anything is written to the data directory", async () => {
    const dataDir = join(parent, "never-made");
    const result = await runPaysvc(["start", "--port", String(port), "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `paysvc: port ${port} on 127.0.0.1 is already in use; stop that process, or use --port N or PORT=N (0 picks a free port)\n`,
    );
    expect(result.stdout).toBe("");
    expect(await exists(dataDir)).toBe(false);
  }, 30_000);

  test("PORT is checked the same way as --port", async () => {
    const dataDir = join(parent, "never-made-either");
    const result = await runPaysvc(["start", "--data-dir", dataDir], { env: { PORT: String(port) } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^paysvc: port ${port} on 127\\.0\\.0\\.1 is already in use`));
    expect(await exists(dataDir)).toBe(false);
  }, 30_000);
});

describe("a statement month not yet closed", () => {
  let server: TestServer;
  let clock: ControlledClock;
  let accountId: string;
  beforeAll(async () => {
    clock = new ControlledClock(new Date("2026-10-20T12:00:00Z"));
    server = await startServer({ clock, settlementLagMs: 72 * 60 * 60 * 1000 });
    accountId = await newUsdAccount(server.client);
  });
  afterAll(() => server.close());

  const statement = () => {
    const { clientId, clientSecret } = server.platform;
    return runPaysvc(["statement", "--account", accountId, "--month", "2026-10", "--url", server.baseUrl], {
      env: { PAYSVC_CLIENT_ID: clientId, PAYSVC_CLIENT_SECRET: clientSecret },
    });
  };

  test("a month that has not ended: exit 1, one line saying so with the platform's time, nothing on stdout", async () => {
    const result = await statement();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^paysvc statement: 2026-10 has not ended yet on the platform's clock \(must not be in the future; the platform's time is 2026-10-20T12:00:00\.000Z\); a statement can be built once the month has ended and its card settlement closed \(request id req_\w+\)\n$/,
    );
  }, 30_000);

  test("a month whose card settlement has not closed: exit 1, one line saying when it closes and what to do", async () => {
    // October ends at 2026-11-01T05:00Z; with the 72 h lag it closes at 2026-11-04T05:00Z, 2 d 17 h away.
    expect((await server.client.post("/sandbox/clock/advance", { to: "2026-11-01T12:00:00Z" })).status).toBe(
      200,
    );
    const result = await statement();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^paysvc statement: the statement for 2026-10 is not available yet: card settlement for that month closes in 2 d 17 h; run this again then \(in the sandbox, POST \/sandbox\/clock\/advance moves the clock\) \(request id req_\w+\)\n$/,
    );
  }, 30_000);
});
