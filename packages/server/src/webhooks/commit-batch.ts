import type { Tx } from "../core/db/db.js";
import { deferUntilCommit, sendWithCommit } from "../core/db/scope.js";
import { enqueueEvents, eventsStatement, type NewEvent } from "./outbox.js";

// A transaction's events written together at its commit: a posting's balance events and its payment's
// event are one statement instead of one each, sent in the same round trip as the COMMIT (issue 20). Still
// the producer's transaction (outbox): if the statement fails, the transaction rolls back.

const pending = new WeakMap<Tx, NewEvent[]>();

/** Events of one instant group, in the order they were added: enqueueEvents takes one platform and instant. */
function groups(events: NewEvent[]): NewEvent[][] {
  const byKey = new Map<string, NewEvent[]>();
  for (const event of events) {
    const key = `${event.platformId} ${event.now.getTime()}`;
    const group = byKey.get(key);
    if (group) group.push(event);
    else byKey.set(key, [event]);
  }
  return [...byKey.values()];
}

/**
 * Adds events to the outbox at the end of `tx` (before its commit), with every other event added so in the
 * same transaction. Outside a transaction scope they are written at once.
 */
export async function enqueueEventsAtCommit(tx: Tx, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const buffered = pending.get(tx);
  if (buffered) {
    buffered.push(...events);
    return;
  }
  const batch = [...events];
  const deferred = deferUntilCommit(tx, async () => {
    pending.delete(tx);
    for (const group of groups(batch)) {
      const statement = eventsStatement(group);
      if (statement) await sendWithCommit(tx, statement.text, statement.params);
    }
  });
  if (!deferred) {
    await enqueueEvents(tx, batch);
    return;
  }
  pending.set(tx, batch);
}
