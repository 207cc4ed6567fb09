import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { BadRequestError, type BulkCustomerImportJob, NotFoundError, PaysvcClient } from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
});
afterAll(() => server.close());

/** Runs the server's jobs until the import is over (bounded). */
async function finished(jobId: string): Promise<BulkCustomerImportJob> {
  for (let turn = 0; turn < 100; turn++) {
    const job = await paysvc.customers.getBulkImportJob(jobId);
    if (job.status === "COMPLETED" || job.status === "FAILED") return job;
    await server.jobs.runDue();
  }
  throw new Error(`import ${jobId} did not finish`);
}

describe("bulk customer import through the SDK", () => {
  test("uploadCsv sends the file as multipart/form-data and answers 202 with the job id", async () => {
    const accepted = await paysvc.customers.uploadCsv(
      "customerType,platformCustomerId,fullName\nINDIVIDUAL,sdk-bulk-1,Ada Lovelace\nPERSON,sdk-bulk-2,\n",
    );
    expect(accepted).toEqual({ jobId: expect.stringMatching(/^Job:/), status: "PENDING" });
    expect(accepted.lastResponse.status).toBe(202);
    const job = await finished(accepted.jobId);
    expect(job).toMatchObject({
      id: accepted.jobId,
      status: "COMPLETED",
      progress: { total: 2, processed: 2, successful: 1, failed: 1 },
      errors: [{ correlationId: "sdk-bulk-2", code: "INVALID_INPUT", details: { row: 2 } }],
    });
    const [ada] = (await paysvc.customers.list({ platformCustomerId: "sdk-bulk-1" })).data;
    expect(ada?.fullName).toBe("Ada Lovelace");
  });

  test("uploadCsv takes bytes too; a file that is not CSV customers is a BadRequestError on file", async () => {
    const error = await paysvc.customers
      .uploadCsv(new TextEncoder().encode("nickname\nada\n"))
      .catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.fieldErrors).toEqual([{ field: "file", message: expect.stringContaining('"nickname"') }]);
  });

  test("getBulkImportJob of an unknown job is a NotFoundError BULK_UPLOAD_JOB_NOT_FOUND", async () => {
    const error = await paysvc.customers
      .getBulkImportJob("Job:019542f5-b3e7-7d02-8000-000000000106")
      .catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("BULK_UPLOAD_JOB_NOT_FOUND");
  });
});

describe("customer and token list filters through the SDK", () => {
  test("list filters customers by region, currency, umaAddress and includes deleted ones on request", async () => {
    const uk = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      region: "GB",
      currencies: ["GBP"],
      umaAddress: "$sdk.filter@example.com",
    });
    const deleted = await paysvc.customers.delete(uk.id);
    expect(deleted).toMatchObject({ id: uk.id, isDeleted: true });
    expect((await paysvc.customers.list({ region: "GB" })).data).toEqual([]);
    const withDeleted = await paysvc.customers.list({
      region: "GB",
      currency: "GBP",
      umaAddress: "$SDK.filter@example.com",
      isIncludingDeleted: true,
      createdAfter: uk.createdAt,
      updatedBefore: deleted.updatedAt,
    });
    expect(withDeleted.data.map((c) => c.id)).toEqual([uk.id]);
  });

  test("a bad filter value is a BadRequestError naming the field", async () => {
    const error = await paysvc.customers.list({ createdAfter: "yesterday" }).catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.fieldErrors).toEqual([
      { field: "createdAfter", constraint: { format: "date-time" }, message: "must be a valid date-time" },
    ]);
  });

  test("tokens.list and listAll filter by exact name and creation time", async () => {
    const token = await paysvc.tokens.create({ name: "sdk-filter-token", permissions: ["VIEW"] });
    const page = await paysvc.tokens.list({ name: "sdk-filter-token", createdAfter: token.createdAt });
    expect(page.data.map((t) => t.id)).toEqual([token.id]);
    const all: string[] = [];
    for await (const t of paysvc.tokens.listAll({ name: "sdk-filter-token", limit: 1 })) all.push(t.id);
    expect(all).toEqual([token.id]);
  });
});
