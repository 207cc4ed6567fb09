import { useCallback, useEffect, useState } from "preact/hooks";
import { describeError } from "./format.js";

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on `reload`), keeping the last answer and its error. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  // The caller names what the load depends on (`deps`), as with useEffect itself.
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(describeError(failure));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { data, error, loading, reload };
}
