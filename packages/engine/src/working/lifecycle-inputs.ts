/* The lifecycle contract lives in core (contracts/lifecycle.ts); the engine's parts import it from here. */
export {
  type CompactionCompleteInput,
  compactionCompleteSchema,
  type PreCompactionInput,
  parseLifecycleInput,
  preCompactionSchema,
  type SessionEndInput,
  type SessionStartInput,
  sessionEndSchema,
  sessionStartSchema,
  type ToolUseInput,
  toolUseSchema,
  type UserPromptSubmitInput,
  userPromptSubmitSchema,
} from '@cairn/core';
