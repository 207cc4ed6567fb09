import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer of the peer. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Peer {
  /** Base URL with a version segment, as a client is configured. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers by request: the recorded request and its 0-based index. */
export type Responder = (request: RecordedRequest, index: number) => Answer;

/**
 * A stand-in network peer on 127.0.0.1:0 for what the real server cannot be made to do on demand (429,
 * 5xx, slow answers, inconsistent pages) and to see the exact headers sent. It answers from a script,
 * then repeats the last; or, given a function, by route.
 */
export async function startPeer(script: Answer[] | Responder): Promise<Peer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const recorded = requests[requests.length - 1] as RecordedRequest;
      const answer =
        typeof script === "function"
          ? script(recorded, requests.length - 1)
          : (script[Math.min(requests.length, script.length) - 1] ?? { status: 500 });
      const send = () => {
        const headers = { "x-request-id": `req_peer${requests.length}`, ...answer.headers };
        if (answer.body === undefined) {
          res.writeHead(answer.status, headers).end();
        } else {
          res.writeHead(answer.status, { "content-type": "application/json", ...headers });
          res.end(JSON.stringify(answer.body));
        }
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A port that was just free and is now closed: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
