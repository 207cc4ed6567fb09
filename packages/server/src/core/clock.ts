/** The service's notion of now; injected so sandbox and tests can control time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that starts at a given instant (or follows real time) and can be moved forward or set. */
export class ControlledClock implements Clock {
  private offsetMs = 0;
  private fixed: number | null;

  constructor(start?: Date) {
    this.fixed = start ? start.getTime() : null;
  }

  now(): Date {
    return new Date((this.fixed ?? Date.now()) + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(instant: Date): void {
    this.fixed = instant.getTime();
    this.offsetMs = 0;
  }
}

/** A clock running `offsetMs` ahead of `base`. */
export function offsetClock(base: Clock, offsetMs: number): Clock {
  return { now: () => new Date(base.now().getTime() + offsetMs) };
}

/** ISO 8601 in UTC with milliseconds and `Z`, the wire's output form (conventions §1.5). */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}
