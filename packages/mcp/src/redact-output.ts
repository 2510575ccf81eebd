import { redactStrings, refuseRedactedOverwrite as refuseOverwrite } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import type { ToolOutcome } from './tool-results';

/**
 * What an agent reads from Cairn goes into a model's context, so it leaves
 * the machine: every string of a read tool's answer goes through the one
 * redaction pass, and the kinds replaced are listed under `redacted` (as
 * memory_expand does). The markdown on disk is not touched.
 */
export function redactedOutcome(structured: object, isError = false): ToolOutcome {
  const { value, found } = redactStrings(structured);
  return {
    structured: found.length > 0 ? { ...value, redacted: found } : value,
    ...(isError ? { isError } : {}),
  };
}

/**
 * An agent only ever saw a redacted copy of a unit that holds a secret; a
 * replacement carrying a placeholder would write `[REDACTED:…]` over the
 * real secret. Refused (CONFLICT, nothing written): the user edits the file.
 * A text without a placeholder is a deliberate rewrite and goes through.
 */
export async function refuseRedactedOverwrite(
  cairn: Cairn,
  memoryId: string,
  text: string,
): Promise<void> {
  if (!text.includes('[REDACTED:')) return;
  // An unknown or malformed id is the replace's own error to report.
  const stored = await cairn.get(memoryId).catch(() => undefined);
  refuseOverwrite(memoryId, text, stored);
}
