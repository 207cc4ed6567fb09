import http from "node:http";

/** What the figures read of an answer: the part of fetch's Response the bench uses. */
export interface BenchResponse {
  status: number;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  json(): Promise<unknown>;
  clone(): BenchResponse;
}

export interface BenchRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

// Kept-alive connections shared by every figure, as a load generator keeps them (docs/benchmarks.md
// "Session 12": fetch's own client took about as much CPU as the server on this 2-core machine).
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });

function answered(status: number, body: Buffer): BenchResponse {
  return {
    status,
    arrayBuffer: async () =>
      body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
    text: async () => body.toString("utf8"),
    json: async () => JSON.parse(body.toString("utf8")),
    clone: () => answered(status, body),
  };
}

/**
 * The bench's HTTP client: node:http over kept-alive connections, answering the body read in full. Lighter
 * than fetch, whose per-request cost on the bench's own 2 cores was taken from the server it measures
 * (`BENCH_CLIENT=fetch` uses fetch, the method before session 12).
 */
export function request(url: string, init: BenchRequestInit = {}): Promise<BenchResponse> {
  // BENCH_CLIENT=fetch: the method before session 12, for side-by-side figures.
  if (process.env.BENCH_CLIENT === "fetch") return fetch(url, init);
  const target = new URL(url);
  const headers = { ...init.headers };
  if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "GET",
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(answered(res.statusCode ?? 0, Buffer.concat(chunks))));
        res.on("error", reject);
      },
    );
    sent.on("error", reject);
    sent.end(init.body);
  });
}
