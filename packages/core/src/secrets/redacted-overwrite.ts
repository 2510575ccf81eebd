import { CairnError } from '../errors';
import { redactSecrets } from './redact-secrets';

/** The placeholder's opening, whatever the kind: `[REDACTED:<kind>]`. */
const PLACEHOLDER = '[REDACTED:';

/**
 * An agent only ever reads a redacted copy of a unit that holds a secret
 * (MCP answers, `cairn … --json`); a replacement carrying a placeholder
 * would write `[REDACTED:…]` over the real secret. Throws CONFLICT then
 * (the caller writes nothing: the user edits the file). A text without a
 * placeholder is a deliberate rewrite and goes through, and so does any
 * text when the stored unit holds no secret or is unknown (the replace
 * reports that itself).
 */
export function refuseRedactedOverwrite(
  memoryId: string,
  text: string,
  stored: { text: string; path: string } | undefined,
): void {
  if (!text.includes(PLACEHOLDER) || !stored) return;
  const { found } = redactSecrets(stored.text);
  if (found.length === 0) return;
  throw new CairnError(
    'CONFLICT',
    `${memoryId} holds a secret that was redacted when you read it; the new text would replace it with a [REDACTED:…] placeholder`,
    {
      hint: `ask the user to edit ${stored.path} by hand, or pass a text without the placeholder`,
      details: { memoryId, path: stored.path, kinds: found.map((f) => f.kind) },
    },
  );
}
