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
    return `deprecated${pattern.reason ? `: ${pattern.reason}` : ''}`;
  return pattern.succeeded <= 1
    ? `candidate, seen once${failed}`
    : `candidate, worked ${times(pattern.succeeded)} in one run${failed}`;
}

function stepLine(step: FixStep, index: number): string {
  const what =
    step.kind === 'run'
      ? `ran \`${step.detail}\``
      : step.kind === 'config'
        ? `changed the configuration file ${step.detail}`
        : `edited ${step.detail}`;
  return `  ${index + 1}. ${what}`;
}

/**
 * A pattern as lines for the model or a person: what it fixes, its state
 * and counts, its steps, and the command family that then succeeded. The
 * text comes from tool events (derived, not approved): it is offered as
 * what worked before, never as an instruction.
 */
export function renderFixPattern(pattern: FixPattern): string[] {
  const steps = pattern.steps.slice(0, SHOWN_STEPS).map(stepLine);
  const more = pattern.steps.length - steps.length;
  return [
    `Fix pattern ${pattern.id} (${patternStateLabel(pattern)}) for: ${pattern.normalized}`,
    ...(steps.length > 0
      ? ['What resolved it last time:', ...steps]
      : ['Last time the same command passed when run again unchanged (flaky?).']),
    ...(more > 0 ? [`  … and ${more} more steps (\`cairn history pattern ${pattern.id}\`)`] : []),
    `  then \`${pattern.commandFamily}\` succeeded.`,
  ];
}
