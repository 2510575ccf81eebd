import { fencedCode, normalizeBreaks } from '../text';
import type { FixPattern } from './fix-pattern-types';
import type { FixStep } from './fix-steps';

/** Steps shown in an injection, at most; `cairn history pattern <id>` shows them all. */
const SHOWN_STEPS = 8;

/** "verified: worked 3 times, failed once" or "candidate, seen once". */
export function patternStateLabel(pattern: FixPattern): string {
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  const failed = pattern.failed > 0 ? `, failed ${times(pattern.failed)}` : '';
  if (pattern.state === 'verified') return `verified: worked ${times(pattern.succeeded)}${failed}`;
  if (pattern.state === 'deprecated')
    return `deprecated${pattern.reason ? `: ${oneLine(pattern.reason)}` : ''}`;
  return pattern.succeeded <= 1
    ? `candidate, seen once${failed}`
    : `candidate, worked ${times(pattern.succeeded)} in one run${failed}`;
}

/**
 * A field that is one line by nature (a command, a path, an error
 * signature): its line breaks cannot start a line of their own in any
 * rendering, for people or for a model.
 */
const oneLine = (text: string) => normalizeBreaks(text).replace(/\s+/g, ' ').trim();

/** A code span for people: one line, in a fence no backtick inside closes. */
const codeSpan = (text: string) => fencedCode(oneLine(text));

function stepLine(step: FixStep, index: number, code: (text: string) => string): string {
  const what =
    step.kind === 'run'
      ? `ran ${code(step.detail)}`
      : step.kind === 'config'
        ? `changed the configuration file ${code(step.detail)}`
        : `edited ${code(step.detail)}`;
  return `  ${index + 1}. ${what}`;
}

/** The steps and the command that then succeeded, each field on its line. */
function stepsPart(pattern: FixPattern, code: (text: string) => string): string[] {
  const steps = pattern.steps.slice(0, SHOWN_STEPS).map((step, i) => stepLine(step, i, code));
  const more = pattern.steps.length - steps.length;
  return [
    ...(steps.length > 0
      ? ['What resolved it last time:', ...steps]
      : ['Last time the same command passed when run again unchanged (flaky?).']),
    ...(more > 0 ? [`  … and ${more} more steps (\`cairn history pattern ${pattern.id}\`)`] : []),
    `  then ${code(pattern.commandFamily)} succeeded.`,
  ];
}

/**
 * A pattern as lines for a person (`cairn history pattern`, the pattern's
 * record): what it fixes, its state and counts, its steps, and the command
 * family that then succeeded. Every field stays on its line.
 */
export function renderFixPattern(pattern: FixPattern): string[] {
  return [
    `Fix pattern ${pattern.id} (${patternStateLabel(pattern)}) for: ${oneLine(pattern.normalized)}`,
    ...stepsPart(pattern, codeSpan),
  ];
}

/**
 * The steps of a pattern for a pack item's text: what resolved it, then
 * the command that succeeded, on one line (the pack escapes it again).
 */
export function fixPatternSteps(pattern: FixPattern): string {
  return stepsPart(pattern, codeSpan)
    .map((line) => line.trim())
    .join(' ');
}

/**
 * The sentence a fix pattern another clone shares carries (docs/TEAMS.md):
 * that clone's file is repository content, said so, with its path.
 */
export function sharedByLine(sharedBy: readonly string[]): string | undefined {
  if (sharedBy.length === 0) return undefined;
  const who = sharedBy.length === 1 ? 'another clone' : `${sharedBy.length} other clones`;
  const files = sharedBy.map((a) => codeSpan(`.cairn/memory/fixes/${a}.md`)).join(', ');
  return `Shared by ${who} of this repository in ${files} (repository content, with its evidence).`;
}
