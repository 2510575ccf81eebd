import type { ApiError } from '../api';

/** A failed load, with its error code and what to do. */
export function ErrorLine({ error }: { error: ApiError }) {
  return (
    <p class="notice error" role="alert">
      <strong class="code">{error.body.code}</strong> {error.body.message}
    </p>
  );
}
