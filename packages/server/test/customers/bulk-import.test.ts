import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import { MAX_FILE_BYTES, MAX_ROWS } from "../../src/customers/bulk/csv.js";
import { MAX_FAILED_RUNS, ROWS_PER_RUN } from "../../src/customers/bulk/imports.js";
import { jobHandlers } from "../../src/jobs.js";
import { createPlatform } from "../../src/platform-config/platforms.js";
import { type RequestOptions, startServer, type TestClient, type TestServer } from "../harness.js";

type FieldError = { field: string; constraint?: unknown; message: string };
type ErrorBody = { code: string; reason: string; details?: { errors: FieldError[] } };
type ErrorEntry = {
  correlationId: string;
  code: string;
  reason: string;
  details?: { row: number; errors?: FieldError[]; [key: string]: unknown };
};
type Job = {
  id: string;
  status: string;
  progress: { total: number; processed: number; successful: number; failed: number };
  errors: ErrorEntry[];
  completedAt?: string;
};
type Accepted = { jobId: string; status: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A multipart/form-data body with one part (a file part unless `text`), as curl -F sends it. */
function form(content: string, part: { name?: string; text?: boolean } = {}): RequestOptions {
  const boundary = `----paysvc${randomUUID()}`;
  const disposition = part.text
    ? `form-data; name="${part.name ?? "file"}"`
    : `form-data; name="${part.name ?? "file"}"; filename="customers.csv"\r\nContent-Type: text/csv`;
  return {
    rawBody: `--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (csv: string, client: TestClient = server.client, part?: { name?: string; text?: boolean }) =>
  client.request<Accepted & ErrorBody>("POST", "/customers/bulk/csv", undefined, form(csv, part));

/** Runs the file's jobs until the import is COMPLETED or FAILED (bounded: one chunk of rows per turn). */
async function finished(jobId: string, client: TestClient = server.client): Promise<Job> {
  for (let turn = 0; turn < 100; turn++) {
    const res = await client.get<Job>(`/customers/bulk/jobs/${jobId}`);
    expect(res.status).toBe(200);
    if (res.body.status === "COMPLETED" || res.body.status === "FAILED") return res.body;
    await server.jobs.runDue();
  }
  throw new Error(`import ${jobId} did not finish`);
}

const tag = () => randomUUID().slice(0, 8);

describe("POST /customers/bulk/csv", () => {
  test("answers 202 {jobId: Job:<uuid>, status: PENDING}, and the job creates each row as POST /customers would", async () => {
    const t = tag();
    const csv = [
      "customerType,platformCustomerId,fullName,email,birthDate,region,currencies,address.line1,address.city,address.postalCode,address.country",
      `INDIVIDUAL,${t}-1,Ada Lovelace,ada@example.com,1815-12-10,US,"USD,EUR",1 Main St,Austin,78701,US`,
      `INDIVIDUAL,${t}-2,Grace Hopper,,,,,,,,`,
      `BUSINESS,${t}-3,,,,,,,,,`,
    ].join("\n");
    const res = await upload(csv);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: "PENDING" });
    const job = await finished(res.body.jobId);
    expect(job).toEqual({
      id: res.body.jobId,
      status: "COMPLETED",
      progress: { total: 3, processed: 3, successful: 3, failed: 0 },
      errors: [],
      completedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const ada = await server.client.get<{ data: Record<string, unknown>[] }>(
      `/customers?platformCustomerId=${t}-1`,
    );
    expect(ada.body.data).toEqual([
      expect.objectContaining({
        customerType: "INDIVIDUAL",
        kycStatus: "UNVERIFIED",
        fullName: "Ada Lovelace",
        email: "ada@example.com",
        birthDate: "1815-12-10",
        currencies: ["USD", "EUR"],
        address: { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" },
      }),
    ]);
    const business = await server.client.get<{ data: Record<string, unknown>[] }>(
      `/customers?platformCustomerId=${t}-3`,
    );
    expect(business.body.data[0]).toMatchObject({ customerType: "BUSINESS" });
  });

  test("every bad row gets an error entry with its row number and FieldErrors; the good rows are still created", async () => {
    const t = tag();
    const csv = [
      "customerType,platformCustomerId,email,phoneNumber,birthDate",
      `INDIVIDUAL,${t}-ok,ok@example.com,+14155550123,`,
      `PERSON,${t}-bad,not-an-email,555-1234,`,
      ",,,,",
      `INDIVIDUAL,${t}-ok,again@example.com,,`,
      `BUSINESS,${t}-biz,,,1990-01-01`,
      `INDIVIDUAL,${t}-short`,
    ].join("\r\n");
    const res = await upload(csv);
    expect(res.status).toBe(202);
    const job = await finished(res.body.jobId);
    expect(job.status).toBe("COMPLETED");
    expect(job.progress).toEqual({ total: 6, processed: 6, successful: 1, failed: 5 });
    expect(job.errors).toEqual([
      {
        correlationId: `${t}-bad`,
        code: "INVALID_INPUT",
        reason: "Row 2: 3 fields are invalid.",
        details: {
          row: 2,
          errors: expect.arrayContaining([
            {
              field: "customerType",
              constraint: { enum: ["INDIVIDUAL", "BUSINESS"] },
              message: "must be one of INDIVIDUAL, BUSINESS",
            },
            { field: "email", constraint: { format: "email" }, message: "must be a valid email" },
            { field: "phoneNumber", constraint: { format: "e.164" }, message: "must be a valid e.164" },
          ]),
        },
      },
      {
        correlationId: "row-3",
        code: "INVALID_INPUT",
        reason: "Row 3: Invalid customerType: is required",
        details: { row: 3, errors: [{ field: "customerType", message: "is required" }] },
      },
      {
        correlationId: `${t}-ok`,
        code: "CONFLICT",
        reason: `Row 4: platformCustomerId ${t}-ok is already used by an active customer on this platform.`,
        details: { row: 4 },
      },
      {
        correlationId: `${t}-biz`,
        code: "INVALID_INPUT",
        reason: "Row 5: Invalid birthDate: is not accepted for BUSINESS customers",
        details: {
          row: 5,
          errors: [{ field: "birthDate", message: "is not accepted for BUSINESS customers" }],
        },
      },
      {
        correlationId: `${t}-short`,
        code: "INVALID_INPUT",
        reason: "Row 6: has 2 cells; the header has 5.",
        details: { row: 6, errors: [{ field: "row", message: "has 2 cells; the header has 5" }] },
      },
    ]);
    const bad = await server.client.get<{ totalCount: number }>(`/customers?platformCustomerId=${t}-bad`);
    expect(bad.body.totalCount).toBe(0);
  });

  test("cells follow RFC 4180: quoted cells hold commas, doubled quotes and line breaks; a UTF-8 BOM is ignored", async () => {
    const t = tag();
    const csv = `\ufeffcustomerType,platformCustomerId,fullName,address.line1,address.city,address.postalCode,address.country\nINDIVIDUAL,${t},"O""Brien, Pat","1 Main St\nSuite 2",Austin,78701,US\n`;
    const job = await finished((await upload(csv)).body.jobId);
    expect(job.progress.successful).toBe(1);
    const res = await server.client.get<{ data: Record<string, unknown>[] }>(
      `/customers?platformCustomerId=${t}`,
    );
    expect(res.body.data[0]).toMatchObject({
      fullName: 'O"Brien, Pat',
      address: { line1: "1 Main St\nSuite 2" },
    });
  });

  test("indexed and nested columns: agreementConsents[0].termsVersion fills a list of objects, and a cell that is not a number is a FieldError", async () => {
    const t = tag();
    const agreements = await server.client.get<{ data: { type: string; version: string }[] }>(
      "/customers/agreements",
    );
    const terms = agreements.body.data.find((a) => a.type === "SERVICE_END_USER_TERMS");
    const csv = [
      "customerType,platformCustomerId,enhancedDueDiligence.expectedMonthlyVolume,agreementConsents[0].type,agreementConsents[0].termsVersion,agreementConsents[0].acceptedAt,agreementConsents[0].ipAddress",
      `INDIVIDUAL,${t}-a,5000,SERVICE_END_USER_TERMS,${terms?.version},2026-01-02T03:04:05.000Z,203.0.113.7`,
      `INDIVIDUAL,${t}-b,lots,,,,`,
    ].join("\n");
    const job = await finished((await upload(csv)).body.jobId);
    expect(job.progress).toMatchObject({ successful: 1, failed: 1 });
    expect(job.errors[0]?.details?.errors).toEqual([
      { field: "enhancedDueDiligence.expectedMonthlyVolume", message: "must be integer" },
    ]);
    const res = await server.client.get<{ data: Record<string, unknown>[] }>(
      `/customers?platformCustomerId=${t}-a`,
    );
    expect(res.body.data[0]).toMatchObject({
      enhancedDueDiligence: { expectedMonthlyVolume: 5000 },
      agreementConsents: [{ type: "SERVICE_END_USER_TERMS", ipAddress: "203.0.113.7" }],
    });
  });

  test("the file may also come as a plain form field named file", async () => {
    const res = await upload(`customerType,platformCustomerId\nINDIVIDUAL,${tag()}`, server.client, {
      text: true,
    });
    expect(res.status).toBe(202);
    expect((await finished(res.body.jobId)).progress.successful).toBe(1);
  });

  const fileProblems: [string, string, string][] = [
    [
      "an unknown column",
      "customerType,nickname\nINDIVIDUAL,x",
      'column 2 "nickname" is not a field of POST /customers',
    ],
    [
      "a column naming an object",
      "customerType,address\nINDIVIDUAL,x",
      'column 2 "address" is not a field of POST /customers',
    ],
    [
      "a repeated column",
      "customerType,email,email\nINDIVIDUAL,a@b.co,a@b.co",
      'column 3 "email" appears twice in the header',
    ],
    ["a header without rows", "customerType,email\n", "has a header but no customer rows"],
    ["an empty file", "", "is empty; send a CSV file with a header row"],
    ["an unclosed quote", 'customerType,fullName\nINDIVIDUAL,"Ada', "is not valid CSV"],
  ];
  test.each(fileProblems)(
    "a file with %s is refused at once: 400 INVALID_INPUT on file",
    async (_name, csv, message) => {
      const res = await upload(csv);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
      expect(res.body.details?.errors).toEqual([
        { field: "file", message: expect.stringContaining(message) },
      ]);
    },
  );

  test("a file whose bytes are not UTF-8 is refused: 400 INVALID_INPUT on file", async () => {
    const body = new FormData();
    body.append("file", new Blob([Buffer.from([0x63, 0x75, 0xff, 0xfe, 0x0a, 0x41])]), "latin1.csv");
    const { clientId, clientSecret } = server.platform;
    const res = await fetch(`${server.baseUrl}/customers/bulk/csv`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).details?.errors).toEqual([
      { field: "file", message: "is not UTF-8 text" },
    ]);
  });

  test(`a file over ${MAX_FILE_BYTES / (1024 * 1024)} MiB is refused: 400 INVALID_INPUT on file`, async () => {
    const big = `customerType,fullName\n${"INDIVIDUAL,Ada\n".repeat(Math.ceil(MAX_FILE_BYTES / 15) + 10)}`;
    const res = await upload(big);
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([{ field: "file", message: "is larger than 10 MiB" }]);
  });

  test(`a file of more than ${MAX_ROWS} rows is refused whole, even past the 2 MiB JSON body limit`, async () => {
    const row = `INDIVIDUAL,${"x".repeat(200)}\n`;
    const csv = `customerType,fullName\n${row.repeat(MAX_ROWS + 1)}`;
    expect(csv.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await upload(csv);
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([
      { field: "file", message: `has ${MAX_ROWS + 1} rows; at most ${MAX_ROWS} are accepted` },
    ]);
  });

  test("a body without the file part, or with another part, is 400 INVALID_INPUT naming each field", async () => {
    const res = await upload("x", server.client, { name: "document" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([
      { field: "file", message: "is required" },
      { field: "document", message: "is not a recognized field" },
    ]);
  });

  test("an Idempotency-Key replays the same upload, and the same key with another file is 409 CONFLICT", async () => {
    const key = randomUUID();
    const send = (csv: string) => {
      const options = form(csv);
      return server.client.request<Accepted & ErrorBody>("POST", "/customers/bulk/csv", undefined, {
        ...options,
        headers: { ...options.headers, "idempotency-key": key },
      });
    };
    const csv = `customerType,platformCustomerId\nINDIVIDUAL,${tag()}`;
    const first = await send(csv);
    const again = await send(csv);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.jobId).toBe(first.body.jobId);
    const other = await send(`customerType,platformCustomerId\nINDIVIDUAL,${tag()}`);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("CONFLICT");
  });

  test("a JSON body is 400 INVALID_REQUEST_FORMAT: the file goes as multipart/form-data", async () => {
    const res = await server.client.post<ErrorBody>("/customers/bulk/csv", {
      file: "customerType\nINDIVIDUAL",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_REQUEST_FORMAT");
  });

  test("an upload needs the MANAGE permission: 403 FORBIDDEN for a VIEW token", async () => {
    const token = await server.client.post<{ clientId: string; clientSecret: string }>("/tokens", {
      name: "viewer",
      permissions: ["VIEW"],
    });
    const viewer = server.client.as({ ...server.platform, ...token.body });
    const res = await upload("customerType\nINDIVIDUAL", viewer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("GET /customers/bulk/jobs/{jobId}", () => {
  test("progress is visible while the import runs: PENDING, then PROCESSING with the rows done so far, then COMPLETED", async () => {
    // A platform outside this file's job runner, driven one job at a time by a runner of the test's own.
    const created = await createPlatform(server.deps, { name: "bulk progress", environment: "SANDBOX" });
    const client = server.client.as({
      platformId: created.platform.id,
      ...created.token,
      tokenId: created.token.id,
    });
    const runner = new JobRunner(server.deps, jobHandlers(), {
      batch: 1,
      platformIds: new Set([created.platform.id]),
    });
    const rows = Array.from({ length: ROWS_PER_RUN + 5 }, (_, i) => `INDIVIDUAL,p-${i}`);
    const { jobId } = (await upload(["customerType,platformCustomerId", ...rows].join("\n"), client)).body;
    const read = async () => (await client.get<Job>(`/customers/bulk/jobs/${jobId}`)).body;
    expect(await read()).toEqual({
      id: jobId,
      status: "PENDING",
      progress: { total: ROWS_PER_RUN + 5, processed: 0, successful: 0, failed: 0 },
      errors: [],
    });
    await runner.runDue();
    expect(await read()).toEqual({
      id: jobId,
      status: "PROCESSING",
      progress: { total: ROWS_PER_RUN + 5, processed: ROWS_PER_RUN, successful: ROWS_PER_RUN, failed: 0 },
      errors: [],
    });
    await runner.runDue();
    expect(await read()).toMatchObject({
      status: "COMPLETED",
      progress: { processed: ROWS_PER_RUN + 5, successful: ROWS_PER_RUN + 5 },
    });
    expect((await client.get<{ totalCount: number }>("/customers")).body.totalCount).toBe(ROWS_PER_RUN + 5);
  });

  test("an import that keeps failing unexpectedly is retried, then given up: FAILED, completedAt, BULK_UPLOAD.FAILED", async () => {
    const created = await createPlatform(server.deps, { name: "bulk failure", environment: "SANDBOX" });
    const client = server.client.as({
      platformId: created.platform.id,
      ...created.token,
      tokenId: created.token.id,
    });
    const { jobId } = (
      await upload("customerType,platformCustomerId\nINDIVIDUAL,f-1\nINDIVIDUAL,f-2", client)
    ).body;
    // A stored header the job can no longer read: every run fails before any row is done.
    await server.db.query(
      'UPDATE customer_bulk_jobs SET columns = \'["nickname","platformCustomerId"]\' WHERE id = $1',
      [jobId],
    );
    // Each retry waits longer (the runner's backoff): a runner whose clock is a day ahead finds it due.
    const ahead = { now: () => new Date(Date.now() + (MAX_FAILED_RUNS + 1) * 86_400_000) };
    const platformIds = new Set([created.platform.id]);
    for (let run = 1; run <= MAX_FAILED_RUNS; run++) {
      const clock = run === 1 ? server.deps.clock : ahead;
      await new JobRunner({ ...server.deps, clock }, jobHandlers(), { batch: 1, platformIds }).runDue();
      const job = (await client.get<Job>(`/customers/bulk/jobs/${jobId}`)).body;
      expect(job.status).toBe(run < MAX_FAILED_RUNS ? "PENDING" : "FAILED");
    }
    const job = (await client.get<Job>(`/customers/bulk/jobs/${jobId}`)).body;
    expect(job).toEqual({
      id: jobId,
      status: "FAILED",
      progress: { total: 2, processed: 0, successful: 0, failed: 0 },
      errors: [],
      completedAt: expect.any(String),
    });
    const events = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE type = 'BULK_UPLOAD.FAILED' AND body LIKE $1",
      [`%${jobId}%`],
    );
    expect(events.map((row) => JSON.parse(row.body).data)).toEqual([job]);
  });

  test("completion fires BULK_UPLOAD.COMPLETED with the finished job as data", async () => {
    const { jobId } = (await upload(`customerType,platformCustomerId\nINDIVIDUAL,${tag()}\n,`)).body;
    const job = await finished(jobId);
    const rows = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE type = 'BULK_UPLOAD.COMPLETED' AND body LIKE $1",
      [`%${jobId}%`],
    );
    expect(rows.map((row) => JSON.parse(row.body).data)).toEqual([job]);
    expect(job.progress).toMatchObject({ successful: 1, failed: 1 });
  });

  test("an unknown, malformed or other platform's job id is 404 BULK_UPLOAD_JOB_NOT_FOUND", async () => {
    const { jobId } = (await upload(`customerType\nINDIVIDUAL`)).body;
    const other = server.client.as(await server.newPlatform());
    for (const [client, id] of [
      [other, jobId],
      [server.client, `Job:${randomUUID()}`],
      [server.client, "Job:nope"],
      [server.client, jobId.replace("Job:", "Customer:")],
    ] as const) {
      const res = await client.get<ErrorBody>(`/customers/bulk/jobs/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("BULK_UPLOAD_JOB_NOT_FOUND");
    }
  });
});
