import { type RedactionResult, redactStrings } from '@cairn/core';
import type { NodeExpansion } from './expand-node';

export interface RedactedExpansion extends NodeExpansion {
  /** Secrets replaced in the text shown, by kind; empty when none. The lineage keeps the raw text. */
  redacted: RedactionResult['found'];
}

/**
 * An expansion as an agent (memory_expand, `cairn expand`) gets it: every
 * text in it (the node, its neighbours, the transcript excerpt) through
 * redactSecrets. Tier 3 stays lossless on disk; only what leaves is redacted.
 */
export function redactExpansion(expansion: NodeExpansion): RedactedExpansion {
  const { value, found } = redactStrings(expansion);
  return { ...value, redacted: found };
}
