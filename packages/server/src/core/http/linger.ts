import type { Socket } from "node:net";

/** How long a closing connection keeps reading what its client still sends before it is destroyed. */
const LINGER_MS = 5_000;

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection so that a client still sending its request can read the answer: the write side
 * is shut once the answer is flushed (FIN), and input is read and dropped until the client closes or
 * LINGER_MS pass. Destroying a socket with unread input makes the kernel send a reset, and the client
 * then loses the answer it had not read yet (issue 15: 4 to 7 of 12 oversized bodies got a reset
 * instead of their 400).
 */
export function lingerClose(socket: Socket): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
  socket.resume();
  socket.end();
}

/** Whether the connection is already closing through `lingerClose`. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Makes Node's own close of this connection linger: after an answer with `Connection: close`, the
 * HTTP server calls `destroySoon()`, which destroys the socket as soon as the answer is written.
 */
export function lingerWhenClosed(socket: Socket | null | undefined): void {
  if (!socket || socket.destroyed) return;
  socket.destroySoon = () => lingerClose(socket);
}
