import type { OperatorCommand } from "./commands.js";
import type { OperatorFile } from "./credential.js";

/** The running server could not be reached at the address it published. */
export class OperatorServerUnreachable extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`its server at ${url} is not reachable`, { cause });
    this.name = "OperatorServerUnreachable";
  }
}

function request(command: OperatorCommand): { method: string; path: string; body: unknown } {
  switch (command.kind) {
    case "create-platform":
      return {
        method: "POST",
        path: "/_operator/platforms",
        body: { name: command.name, environment: command.environment },
      };
    case "card-limits": {
      const { kind: _, platformId, ...body } = command;
      return {
        method: "PUT",
        path: `/_operator/platforms/${encodeURIComponent(platformId)}/card-limits`,
        body,
      };
    }
    case "rotate-webhook-key":
      return {
        method: "POST",
        path: `/_operator/platforms/${encodeURIComponent(command.platformId)}/webhook-signing-keys`,
        body: {},
      };
    case "daily-volume-limit": {
      const { kind: _, platformId, ...body } = command;
      return {
        method: "PUT",
        path: `/_operator/platforms/${encodeURIComponent(platformId)}/daily-volume-limit`,
        body,
      };
    }
  }
}

/** Sends an operator command to the server that holds the data directory: its status and JSON answer. */
export async function sendOperatorCommand(
  server: Required<OperatorFile>,
  command: OperatorCommand,
): Promise<{ status: number; body: { code?: string; reason?: string } & Record<string, unknown> }> {
  const { method, path, body } = request(command);
  let response: Response;
  try {
    response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new OperatorServerUnreachable(server.url, error);
  }
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
