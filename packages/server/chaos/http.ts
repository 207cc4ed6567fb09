/** A JSON answer, or `lost` when the connection failed before a response arrived (refused, reset, timeout). */
export type Answer =
  | { lost: false; status: number; body: Record<string, unknown>; replayed: boolean }
  | { lost: true; error: string };

/** One JSON request with Basic auth; never throws (a transport failure is a lost response). */
export async function send(
  base: string,
  authorization: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<Answer> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text };
    }
    return {
      lost: false,
      status: res.status,
      body: parsed,
      replayed: res.headers.get("idempotent-replayed") === "true",
    };
  } catch (error) {
    return { lost: true, error: String((error as Error).cause ?? error) };
  }
}

/** A request that must succeed with `status`; throws with the answer otherwise (set-up steps). */
export async function must(
  base: string,
  authorization: string,
  method: string,
  path: string,
  body: unknown,
  status: number,
): Promise<Record<string, unknown>> {
  const answer = await send(base, authorization, method, path, body);
  if (answer.lost || answer.status !== status)
    throw new Error(`${method} ${path}: expected ${status}, got ${JSON.stringify(answer)}`);
  return answer.body;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same operations and kill schedule. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
