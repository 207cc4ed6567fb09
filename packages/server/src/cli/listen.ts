import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PaysvcClient } from "@paysvc/sdk";
import {
  type ApiCredentials,
  type CommandIo,
  credentialsFor,
  describeApiFailure,
  networkReason,
  serverFor,
} from "./api.js";

/** What `paysvc listen` needs: where to forward, and where the server and the API token are. */
export interface ListenCommand {
  forwardTo: string;
  url?: string | undefined;
  dataDir: string;
  credentials?: ApiCredentials | undefined;
  /** Resolves when the command should stop (SIGINT/SIGTERM in the bin). */
  stopped: Promise<unknown>;
}

// The delivery's own headers travel with it, so the receiver can verify X-Service-Signature.
const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** "TYPE id" and the payload, pretty-printed when it is JSON. */
function describeEvent(body: Buffer): { title: string; payload: string } {
  try {
    const event = JSON.parse(body.toString("utf8")) as { type?: unknown; id?: unknown };
    const title = [event.type, event.id].filter((part) => typeof part === "string").join(" ");
    return { title: title || "(an event without a type)", payload: JSON.stringify(event, null, 2) };
  } catch {
    return { title: "(a body that is not JSON)", payload: body.toString("utf8") };
  }
}

/**
 * Forwards one delivery to `forwardTo` with its headers and exact body, prints the event and the
 * receiver's status, and answers paysvc with that status (502 when the receiver cannot be reached), so
 * paysvc's retries follow the receiver's answers as they would without `listen` in between.
 */
async function forward(
  request: IncomingMessage,
  response: ServerResponse,
  forwardTo: string,
  io: CommandIo,
): Promise<void> {
  const body = await bodyOf(request);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === "string" && !HOP_BY_HOP.has(name)) headers[name] = value;
  const { title, payload } = describeEvent(body);
  let status: number;
  let outcome: string;
  try {
    const answer = await fetch(forwardTo, { method: "POST", headers, body: new Uint8Array(body) });
    await answer.arrayBuffer();
    status = answer.status;
    outcome = `${answer.status} from ${forwardTo}`;
  } catch (error) {
    status = 502;
    outcome = `${forwardTo} did not answer: ${networkReason(error)}`;
  }
  io.stdout.write(`${new Date().toISOString()} ${title}\n${payload}\n  -> ${outcome}\n`);
  response.writeHead(status).end();
}

/**
 * `paysvc listen --forward-to URL`: receives the platform's events on a local address that it sets as the
 * platform's webhook endpoint, forwards each to URL, and prints its type, payload and the receiver's
 * status. When stopped, it puts the previous endpoint back. Exit 0 stopped; 1 it could not start.
 */
export async function runListenCommand(command: ListenCommand, io: CommandIo): Promise<number> {
  if (!/^https?:\/\//.test(command.forwardTo) || !URL.canParse(command.forwardTo)) {
    io.stderr.write(`paysvc listen: --forward-to must be an http(s) URL, not ${command.forwardTo}\n`);
    return 1;
  }
  const credentials = await credentialsFor(command.dataDir, command.credentials);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc listen: no API credentials: ${credentials}\n`);
    return 1;
  }
  const server = await serverFor("listen", command.url, command.dataDir, io);
  const client = new PaysvcClient({ baseUrl: server.url, ...credentials });
  const receiver = createServer((request, response) => {
    forward(request, response, command.forwardTo, io).catch((error: unknown) => {
      io.stderr.write(`paysvc listen: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  let previous: string | null;
  try {
    previous = (await client.config.get()).webhookEndpoint;
    await client.config.update({ webhookEndpoint: endpoint });
  } catch (error) {
    receiver.close();
    io.stderr.write(`paysvc listen: ${describeApiFailure(error, server)}\n`);
    return 1;
  }
  io.stderr.write(
    `paysvc listen: forwarding events to ${command.forwardTo} (webhook endpoint set to ${endpoint}; ` +
      `stop with Ctrl-C to put back ${previous ?? "no endpoint"})\n`,
  );
  await command.stopped;
  receiver.closeAllConnections();
  receiver.close();
  try {
    await client.config.update({ webhookEndpoint: previous });
    io.stderr.write(`paysvc listen: webhook endpoint put back to ${previous ?? "none"}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(
      `paysvc listen: could not put back the webhook endpoint ${previous ?? "(none)"}: ${describeApiFailure(error, server)}\n`,
    );
    return 1;
  }
}
