import { setTimeout as sleep } from "node:timers/promises";
import type { TransactionOptions } from "./db.js";
import { isRetryable } from "./sqlstate.js";

/** Runs one transaction attempt at a time, retrying on serialization failure or deadlock with jittered backoff. */
export async function withRetry<T>(attempt: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 5;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= maxAttempts || !isRetryable(error)) throw error;
      await sleep(Math.random() * 10 * 2 ** n);
    }
  }
}

export function beginStatement(options: TransactionOptions = {}): string {
  return options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation.toUpperCase()}` : "BEGIN";
}
