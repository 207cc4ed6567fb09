import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** How the receiver answers the n-th request (0-based); the default answers 200. */
export type Responder = (n: number, response: ServerResponse, received: Received) => void;

export interface Receiver {
  url: string;
  received: Received[];
  /** TCP connections accepted so far (a kept-alive one carries many requests). */
  connections(): number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1, port 0. */
export async function startReceiver(respond: Responder = (_n, res) => res.end("ok")): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry = { body: Buffer.concat(chunks).toString("utf8"), headers: req.headers };
      received.push(entry);
      respond(received.length - 1, res, entry);
    });
  });
  let connections = 0;
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with this status (and body) every time. */
export function status(code: number, body = ""): Responder {
  return (_n, res) => {
    res.statusCode = code;
    res.end(body);
  };
}

/** A URL on 127.0.0.1 where nothing listens: a receiver started and closed again. */
export async function closedPortUrl(): Promise<string> {
  const receiver = await startReceiver();
  await receiver.close();
  return receiver.url;
}
