import net from "node:net";

/** One HTTP answer as read off a raw socket. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Where the first answer in `text` ends (headers and Content-Length bytes), or -1 while incomplete. */
function answerEnd(text: string, from = 0): number {
  const head = text.indexOf("\r\n\r\n", from);
  if (head < 0) return -1;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(from, head));
  const end = head + 4 + Number(length?.[1] ?? 0);
  return text.length >= end ? end : -1;
}

function completeAnswers(text: string): number {
  let count = 0;
  for (let at = answerEnd(text); at > 0; at = answerEnd(text, at)) count++;
  return count;
}

/** Parses the first answer in `text`, read as latin1 (status line, headers, body up to Content-Length). */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete HTTP answer in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? text.length - end - 4);
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: Buffer.from(text.slice(end + 4, end + 4 + length), "latin1").toString("utf8"),
  };
}

/** A raw connection to `origin`; `answers(n)` resolves with all received once `n` answers are complete. */
export async function connect(
  origin: string,
): Promise<{ socket: net.Socket; answers: (n: number) => Promise<string> }> {
  const url = new URL(origin);
  const socket = net.connect(Number(url.port), url.hostname);
  let received = "";
  let closed = false;
  let failure: Error | null = null;
  const waiting: { n: number; resolve: (text: string) => void; reject: (error: Error) => void }[] = [];
  const settle = () => {
    for (const waiter of [...waiting]) {
      if (failure) waiter.reject(failure);
      else if (closed || completeAnswers(received) >= waiter.n) waiter.resolve(received);
      else continue;
      waiting.splice(waiting.indexOf(waiter), 1);
    }
  };
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    received += chunk;
    settle();
  });
  socket.on("error", (error) => {
    failure = error;
    settle();
  });
  socket.on("close", () => {
    closed = true;
    settle();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const answers = (n: number) =>
    new Promise<string>((resolve, reject) => {
      waiting.push({ n, resolve, reject });
      settle();
    });
  return { socket, answers };
}

/**
 * Sends `request` whole and only then reads the answer, as a client that uploads before it reads. The
 * upload must complete: a server that closes with input unread resets the connection, and the client's
 * write fails (a rejection here) however much of the answer had arrived. The connection is not
 * half-closed: Node ends a connection whose client half-closes, answered or not.
 */
export async function sendAllThenRead(
  origin: string,
  request: Array<string | Uint8Array>,
): Promise<RawAnswer> {
  const { socket, answers } = await connect(origin);
  socket.pause();
  try {
    await new Promise<void>((resolve, reject) =>
      request.forEach((part, i) => {
        if (i < request.length - 1) socket.write(part);
        else socket.write(part, (error) => (error ? reject(error) : resolve()));
      }),
    );
    socket.resume();
    return parseAnswer(await answers(1));
  } finally {
    socket.destroy();
  }
}
