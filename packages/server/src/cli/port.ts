import { createServer } from "node:net";
import { findServer } from "./server-file.js";

/** The port `paysvc start` is to listen on is taken; the message names who holds it when we know. */
export class PortInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PortInUseError";
  }
}

const listenCode = (host: string, port: number) =>
  new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "EADDRINUSE"));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });

/**
 * Refuses a listen port that is taken, before the server writes anything to its data directory (the lock,
 * a new embedded database, credentials): a second `npm start` then changes nothing. Port 0 is always free.
 * The real listen can still lose a race for the port; main.ts reports that the same way.
 */
export async function assertPortFree(host: string, port: number, dataDir: string): Promise<void> {
  if (port === 0) return;
  const code = await listenCode(host, port);
  if (code === undefined) return;
  throw new PortInUseError(await portInUseMessage(host, port, dataDir, code));
}

/** "port 8080 on 127.0.0.1 is already in use (by paysvc pid 123, …)": one line, with what to do. */
export async function portInUseMessage(
  host: string,
  port: number,
  dataDir: string,
  code = "EADDRINUSE",
): Promise<string> {
  if (code === "EACCES")
    return `port ${port} on ${host} needs privileges this process lacks; use --port or PORT`;
  if (code !== "EADDRINUSE") return `cannot listen on ${host}:${port} (${code}); use --host/--port`;
  const found = await findServer(dataDir);
  const holder =
    found.kind === "running" && new URL(found.url).port === String(port)
      ? ` by paysvc pid ${found.pid} (${found.file})`
      : "";
  return `port ${port} on ${host} is already in use${holder}; stop that process, or use --port N or PORT=N (0 picks a free port)`;
}
