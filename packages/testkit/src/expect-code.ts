import { CairnError } from '@cairn/core';
import { expect } from 'vitest';

/** Awaits `promise` and checks it rejected with a CairnError of `code`. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<CairnError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(CairnError.isInstance(error), `expected a CairnError ${code}, got ${String(error)}`).toBe(
    true,
  );
  expect((error as CairnError).code).toBe(code);
  return error as CairnError;
}
