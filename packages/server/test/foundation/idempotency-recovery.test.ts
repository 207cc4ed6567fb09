import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { API_VERSION } from "../../src/app.js";
import { ControlledClock } from "../../src/core/clock.js";
import { withTransactionPreamble } from "../../src/core/db/scope.js";
import { canonicalJson } from "../../src/core/hash.js";
import type { Caller } from "../../src/core/http/context.js";
import { CLAIM_LEASE_MS, type HeldClaim, holdClaim } from "../../src/core/idempotency/idempotency.js";
import { keyDigest, keyedFingerprint } from "../../src/core/idempotency/sealing.js";
import { createCustomer } from "../../src/customers/customers.js";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
const clock = new ControlledClock();
beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

const withKey = (key: string) => ({ headers: { "idempotency-key": key } });
const countCustomers = async () =>
  (await server.client.get<{ totalCount: number }>("/customers")).body.totalCount;

interface ClaimRow {
  [column: string]: unknown;
  state: string;
  claim_token: string | null;
  claimed_at: Date | null;
  effect_at: Date | null;
}

const claimRow = async (key: string): Promise<ClaimRow | undefined> =>
  (
    await server.db.query<ClaimRow>("SELECT * FROM idempotency_keys WHERE platform_id = $1 AND key = $2", [
      server.platform.platformId,
      keyDigest(key),
    ])
  )[0];

/** What a process killed after claiming `key` for `POST /customers body` leaves behind. */
async function leaveClaim(key: string, body: unknown, claim: { token: string; effectAt?: Date }) {
  const now = clock.now();
  await server.db.query(
    `INSERT INTO idempotency_keys
       (platform_id, key, fingerprint, state, created_at, expires_at, claim_token, claimed_at, effect_at)
     VALUES ($1, $2, $3, 'IN_PROGRESS', $4, $5, $6, $4, $7)`,
    [
      server.platform.platformId,
      keyDigest(key),
      keyedFingerprint(key, `POST /${API_VERSION}/customers\n${canonicalJson(body)}`),
      now,
      new Date(now.getTime() + 24 * 60 * 60 * 1000),
      claim.token,
      claim.effectAt ?? null,
    ],
  );
}

const afterLease = () => clock.advance(CLAIM_LEASE_MS + 1000);

const stillRunning = {
  code: "CONFLICT",
  reason: "A request with this Idempotency-Key is still running; retry later.",
};

function caller(): Caller {
  return {
    platformId: server.platform.platformId,
    tokenId: server.platform.tokenId,
    permissions: ["VIEW", "TRANSACT", "MANAGE"],
    environment: "SANDBOX",
    clockOffsetMs: 0,
  };
}

describe("Idempotency-Key claims left by a killed process (lease rule)", () => {
  test("a young in-progress claim is 409 CONFLICT still running", async () => {
    const body = { customerType: "INDIVIDUAL", fullName: "Young Claim" };
    await leaveClaim("young-claim", body, { token: "killed" });
    const before = await countCustomers();
    const retry = await server.client.post("/customers", body, withKey("young-claim"));
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual(stillRunning);
    expect(await countCustomers()).toBe(before);
    expect((await claimRow("young-claim"))?.claim_token).toBe("killed");
  });

  test("a claim abandoned before any effect is taken over by a retry after the lease, and the request runs once", async () => {
    const body = { customerType: "INDIVIDUAL", fullName: "Abandoned Early" };
    await leaveClaim("abandoned-early", body, { token: "killed" });
    const before = await countCustomers();
    afterLease();
    const retry = await server.client.post<{ id: string }>("/customers", body, withKey("abandoned-early"));
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const again = await server.client.post<{ id: string }>("/customers", body, withKey("abandoned-early"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(retry.body.id);
    expect(await countCustomers()).toBe(before + 1);
    const row = await claimRow("abandoned-early");
    expect(row?.state).toBe("DONE");
    expect(row?.claim_token).not.toBe("killed");
    expect(row?.effect_at).not.toBeNull();
  });

  test("an abandoned claim is taken over only by the same request: another body is 409 CONFLICT", async () => {
    await leaveClaim("abandoned-other", { customerType: "INDIVIDUAL" }, { token: "killed" });
    afterLease();
    const res = await server.client.post(
      "/customers",
      { customerType: "BUSINESS" },
      withKey("abandoned-other"),
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "CONFLICT",
      reason: "This Idempotency-Key was used with a different request (method, path or body).",
    });
    expect((await claimRow("abandoned-other"))?.claim_token).toBe("killed");
  });

  test("an abandoned claim whose effect committed is never re-run: 409 CONFLICT saying the response was lost, and the effect exists once", async () => {
    const body = { customerType: "INDIVIDUAL", fullName: "Effect Then Killed" };
    const before = await countCustomers();
    const first = await server.client.post("/customers", body, withKey("effect-then-killed"));
    expect(first.status).toBe(201);
    expect((await claimRow("effect-then-killed"))?.effect_at).not.toBeNull();
    // The process dies after the handler's commit, before its response is stored.
    await server.db.query(
      `UPDATE idempotency_keys SET state = 'IN_PROGRESS', response_status = NULL, response_body = NULL,
         response_content_type = NULL WHERE platform_id = $1 AND key = $2`,
      [server.platform.platformId, keyDigest("effect-then-killed")],
    );
    const young = await server.client.post("/customers", body, withKey("effect-then-killed"));
    expect(young.body).toEqual(stillRunning);
    afterLease();
    const retry = await server.client.post("/customers", body, withKey("effect-then-killed"));
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual({
      code: "CONFLICT",
      reason:
        "A request with this Idempotency-Key completed, but its response was lost; read the resource to learn the outcome.",
    });
    expect(await countCustomers()).toBe(before + 1);
  });

  test("a request's transaction commits its effect together with its claim's effect mark", async () => {
    const key = "holder-commits";
    const body = { customerType: "INDIVIDUAL" as const, fullName: "Holder Commits" };
    await leaveClaim(key, body, { token: "holder" });
    const claim: HeldClaim = {
      platformId: server.platform.platformId,
      key: keyDigest(key),
      token: "holder",
      clientKey: key,
      active: true,
    };
    const before = await countCustomers();
    await withTransactionPreamble(holdClaim(claim, clock), () => createCustomer(server.deps, caller(), body));
    expect(await countCustomers()).toBe(before + 1);
    expect((await claimRow(key))?.effect_at).not.toBeNull();
  });

  test("a takeover makes the old holder's transaction roll back: 409 CONFLICT, no effect", async () => {
    const key = "taken-over";
    const body = { customerType: "INDIVIDUAL" as const, fullName: "Taken Over" };
    await leaveClaim(key, body, { token: "old-holder" });
    // A retry after the lease took the claim over (new token) while the old holder was still running.
    await server.db.query(
      "UPDATE idempotency_keys SET claim_token = 'retry' WHERE platform_id = $1 AND key = $2",
      [server.platform.platformId, keyDigest(key)],
    );
    const claim: HeldClaim = {
      platformId: server.platform.platformId,
      key: keyDigest(key),
      token: "old-holder",
      clientKey: key,
      active: true,
    };
    const before = await countCustomers();
    await expect(
      withTransactionPreamble(holdClaim(claim, clock), () => createCustomer(server.deps, caller(), body)),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      reason: "A retry with this Idempotency-Key took over this request; it was not applied.",
    });
    expect(await countCustomers()).toBe(before);
    expect((await claimRow(key))?.effect_at).toBeNull();
  });

  test("once a request's response is being stored, later transactions in its context carry no claim", async () => {
    // No record with this token exists: an active claim would roll the transaction back.
    const claim: HeldClaim = {
      platformId: server.platform.platformId,
      key: keyDigest("finished-request"),
      token: "finished",
      clientKey: "finished-request",
      active: false,
    };
    const before = await countCustomers();
    await withTransactionPreamble(holdClaim(claim, clock), () =>
      createCustomer(server.deps, caller(), { customerType: "INDIVIDUAL", fullName: "After Response" }),
    );
    expect(await countCustomers()).toBe(before + 1);
  });
});
