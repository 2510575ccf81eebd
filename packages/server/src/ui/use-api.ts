import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, apiGet } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads `path` (again whenever it changes, or on `reload`). */
export function useApi<T>(path: string | undefined): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    setLoading(true);
    apiGet<T>(path)
      .then((value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
      })
      .catch((caught: unknown) => {
        if (!live) return;
        setError(
          caught instanceof ApiError
            ? caught
            : new ApiError(0, { code: 'INTERNAL', message: String(caught) }),
        );
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data, error, loading, reload };
}
