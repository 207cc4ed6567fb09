import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface IntegrityPeer {
  baseUrl: string;
  accountId: string;
  /** Method and path of every request received. */
  requests: string[];
  close(): Promise<void>;
}

const USD = { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 };
const usd = (amount: number) => ({ amount, currency: USD });

/**
 * A stand-in network peer on 127.0.0.1:0 serving a balance-changes window whose closingBalance is not
 * openingBalance + Σ amount, which the real server cannot be made to do.
 */
export async function startIntegrityPeer(): Promise<IntegrityPeer> {
  const accountId = "InternalAccount:0199a0a0-0000-7000-8000-00000000a001";
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://peer").pathname);
    let body: unknown = { code: "NOT_FOUND", reason: "No such route." };
    let status = 404;
    if (path.endsWith(`/internal-accounts/${accountId}`)) {
      status = 200;
      body = {
        id: accountId,
        customerId: "Customer:0199a0a0-0000-7000-8000-00000000c001",
        type: "INTERNAL_FIAT",
        status: "ACTIVE",
        balance: usd(0),
        totalBalance: usd(0),
        fundingPaymentInstructions: [],
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      };
    } else if (path.endsWith("/balance-changes")) {
      status = 200;
      body = {
        data: [
          {
            id: "BalanceChange:0199a0a0-0000-7000-8000-000000000001",
            amount: usd(5_000),
            fee: usd(0),
            transactionId: "Transaction:0199a0a0-0000-7000-8000-0000000000a1",
            effectiveAt: "2026-10-02T12:00:00.000Z",
          },
        ],
        openingBalance: usd(1_000),
        closingBalance: usd(9_999),
        windowStart: "2026-10-01T00:00:00-05:00",
        windowEnd: "2026-11-01T00:00:00-05:00",
        hasMore: false,
        totalCount: 1,
        totalCountIsExact: true,
      };
    }
    res.writeHead(status, {
      "content-type": "application/json",
      "x-request-id": `req_peer${requests.length}`,
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    accountId,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
