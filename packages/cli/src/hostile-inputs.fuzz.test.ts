import { join } from 'node:path';
import { escapePackLabel, escapePackText, type PackCandidate, renderPack } from '@cairn/engine';
import {
  FORGING_TEXTS,
  injectionForgeries,
  makeTempProject,
  snapshotTree,
  type TempProject,
} from '@cairn/testkit';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectErrorLine,
  expectHealthyWorkspace,
  FUZZ_RUNS,
  KNOWN_CODES,
  makeLinkTargets,
  memorySnapshot,
  OUTSIDE_MARKER,
  runInProcess,
  withLink,
} from './fuzz-harness';
import {
  cairnMarker,
  controlText,
  deepJson,
  deepValue,
  hostileString,
  linkSpot,
  linkTarget,
  pathLike,
} from './hostile-values';

/**
 * Generated hostile values through the CLI and the hook entry point, in
 * process. Properties: a typed error (a known code, never INTERNAL or exit
 * 70) or a success of the documented shape; a refusal changes nothing; a
 * read changes no memory file; and no input leaves a damaged workspace.
 * Seeded, so a failure replays; fast-check prints the seed and the path.
 */

// A fresh project per property, so one property's writes cannot fail another's.
let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject('cairn-fuzz-');
  expect((await runInProcess(project.root, ['init'])).code).toBe(0);
});
afterEach(() => project.cleanup());

/** The whole project: a refused call changes nothing under it, not even `.cairn/state/`. */
function projectTree(): Promise<Record<string, string>> {
  return snapshotTree(project.root);
}

interface CliCase {
  argv: string[];
  stdin?: string;
  /** `read`: must change no memory file even when it succeeds. */
  kind: 'write' | 'read';
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const flag = (name: string, value: string | undefined) =>
  value === undefined ? [] : [`--${name}`, value];
const unitId = fc.oneof(
  hostileString,
  fc.constantFrom(
    'UNIT:11111111-1111-4111-8111-111111111111',
    'RAW:MEMORY.md#L1-L1',
    'RAW:../../etc/passwd#L1-L9',
  ),
);

const unitText = hostileString;

const cliCase: fc.Arbitrary<CliCase> = fc.oneof(
  fc
    .record({
      text: unitText,
      viaStdin: fc.boolean(),
      category: maybe(fc.oneof(hostileString, fc.constant('fact'))),
      review: maybe(fc.oneof(hostileString, fc.constant('draft'))),
      source: maybe(hostileString),
    })
    .map(({ text, viaStdin, category, review, source }) => ({
      // Flags first: after `--` everything is text.
      argv: [
        'add',
        ...flag('category', category),
        ...flag('review', review),
        ...flag('source', source),
        ...(viaStdin ? [] : ['--', text]),
      ],
      ...(viaStdin ? { stdin: text } : {}),
      kind: 'write' as const,
    })),
  fc.tuple(unitId, unitText).map(([id, text]) => ({
    argv: ['replace', '--', id, text],
    kind: 'write' as const,
  })),
  unitId.map((id) => ({ argv: ['remove', '--', id], kind: 'write' as const })),
  unitId.map((id) => ({ argv: ['get', '--', id], kind: 'read' as const })),
  fc
    .tuple(fc.constantFrom('category', 'review', 'since', 'until', 'path'), hostileString)
    .map(([name, value]) => ({ argv: ['list', `--${name}`, value], kind: 'read' as const })),
  fc
    .tuple(
      hostileString,
      maybe(fc.oneof(hostileString, fc.constant('5'))),
      maybe(fc.constantFrom('since', 'path', 'kind', 'category')),
      hostileString,
    )
    .map(([query, limit, filter, value]) => ({
      argv: [
        'search',
        ...flag('limit', limit),
        ...(filter ? [`--${filter}`, value] : []),
        '--',
        query,
      ],
      kind: 'read' as const,
    })),
  fc.tuple(pathLike, hostileString).map(([path, _]) => ({
    argv: ['write', '--file', `${path}.missing-${path.length}`],
    kind: 'write' as const,
  })),
  fc
    .tuple(fc.constantFrom('threads', 'head', 'expand', 'read', 'status', 'list'), hostileString)
    .map(([command, value]) => ({
      argv:
        command === 'expand'
          ? ['expand', '--agent', value, '--', value]
          : command === 'head'
            ? ['head', '--agent', value, '--thread', value]
            : command === 'threads'
              ? ['threads', '--agent', value]
              : [command, `--${value}`],
      kind: 'read' as const,
    })),
  fc
    .tuple(
      fc.constantFrom('session-start', 'session-end', 'nosuch'),
      fc.oneof(hostileString, fc.constant(deepJson(10_000, 'object'))),
    )
    .map(([event, body]) => ({
      argv: ['lifecycle', event],
      stdin: body,
      kind: 'write' as const,
    })),
);

/** A forging attempt, a hostile string, or both glued together. */
const injectedText = fc.oneof(
  hostileString,
  fc.constantFrom(...FORGING_TEXTS.map((attempt) => attempt.text)),
  fc
    .tuple(
      fc.array(fc.oneof(hostileString, fc.constantFrom(...FORGING_TEXTS.map((a) => a.text))), {
        maxLength: 4,
      }),
      fc.constantFrom('\n', '\r', '\u2028', ' '),
    )
    .map(([parts, separator]) => parts.join(separator)),
);

describe('the one escape', () => {
  it('any text in any field of any trust class: the rendered pack forges nothing, and escaping is idempotent', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            text: injectedText,
            field: injectedText,
            trust: fc.constantFrom('approved', 'derived', 'raw'),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (inputs) => {
          const items: PackCandidate[] = inputs.map(({ text, field, trust }, i) => ({
            id: `i-${i}`,
            plane: 'history',
            text,
            quotes: [{ from: field, text: field }],
            source: field,
            trustClass: trust as PackCandidate['trustClass'],
            provenance: { kind: 'document', id: field, file: field, heading: field },
            tokenCost: 1,
            score: 1,
            why: field,
          }));
          const pack = renderPack(items);
          expect(injectionForgeries(pack)).toEqual([]);
          expect(pack.split('\n').filter((line) => line.startsWith('- ['))).toHaveLength(
            items.length,
          );
          for (const { text } of inputs) {
            expect(escapePackText(escapePackText(text))).toBe(escapePackText(text));
            expect(escapePackLabel(text)).not.toContain('\n');
          }
        },
      ),
      { ...FUZZ_RUNS, numRuns: 300 },
    );
  });
});

describe('hostile inputs', () => {
  it('CLI: a typed error or a documented success; a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(cliCase, fc.boolean(), async (input, json) => {
        const argv = json ? [input.argv[0]!, '--json', ...input.argv.slice(1)] : input.argv;
        const tree = await projectTree();
        const memory = await memorySnapshot(project.root);
        const run = await runInProcess(project.root, argv, input.stdin);
        expect([0, 1, 2]).toContain(run.code);
        if (run.code !== 0) {
          // A `--json` anywhere before the flags parse asks for a JSON error.
          if (run.stdout) {
            const body = JSON.parse(run.stdout);
            expect(body.ok).toBe(false);
            const code =
              typeof body.error === 'string' ? body.error.toUpperCase() : body.error.code;
            expect(KNOWN_CODES).toContain(code);
            expect(code).not.toBe('INTERNAL');
          } else {
            expectErrorLine(run.stderr);
          }
          expect(await projectTree()).toEqual(tree);
        } else if (json) {
          expect(JSON.parse(run.stdout)).toBeTypeOf('object');
        }
        if (input.kind === 'read') expect(await memorySnapshot(project.root)).toEqual(memory);
        await expectHealthyWorkspace(project.root);
      }),
      FUZZ_RUNS,
    );
  }, 120_000);

  it('CLI: text with a unit marker is refused with TEXT_CONTAINS_MARKER and writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        cairnMarker.filter((m) => m.includes('memory:item')),
        fc.string(),
        async (a, marker, b) => {
          const tree = await projectTree();
          const run = await runInProcess(project.root, ['add', '--', `${a}${marker}${b}`]);
          expect(run.code).toBe(2);
          expect(expectErrorLine(run.stderr)).toBe('TEXT_CONTAINS_MARKER');
          expect(await projectTree()).toEqual(tree);
        },
      ),
      { ...FUZZ_RUNS, numRuns: 40 },
    );
  }, 60_000);

  it('hooks: always exit 0; a refused payload is one typed line and changes no memory', async () => {
    const events = [
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PreCompact',
      'SessionEnd',
    ] as const;
    const malformed = fc.oneof(
      fc.constantFrom(
        deepJson(10_000, 'array'),
        deepJson(10_000, 'object'),
        '',
        '{',
        'null',
        '[]',
        '"x"',
      ),
      hostileString,
      fc.anything().map((value) => JSON.stringify(value) ?? 'undefined'),
      fc
        .record({
          session_id: fc.oneof(hostileString, fc.anything()),
          transcript_path: fc.oneof(pathLike, fc.anything()),
          prompt: fc.oneof(hostileString, cairnMarker, controlText),
          tool_input: fc.anything(),
        })
        .map((fields) => JSON.stringify({ ...fields, cwd: project.root })),
    );
    /** Well-formed for the event, hostile inside: these reach the lifecycle and may write. */
    const wellFormed = (event: string) =>
      fc
        .record({
          session_id: fc.oneof(
            fc.constant('s-1'),
            hostileString.filter((id) => id.trim().length > 0 && id.length <= 200),
          ),
          transcript_path: pathLike,
          prompt: fc.oneof(hostileString, cairnMarker).filter((p) => p.length <= 200_000),
          tool_input: fc.oneof(fc.anything(), fc.constant(deepValue(2_000))),
          tool_response: fc.oneof(hostileString, fc.anything()),
        })
        .map((fields) =>
          JSON.stringify({
            ...fields,
            hook_event_name: event,
            cwd: project.root,
            source: 'startup',
            tool_name: 'Bash',
            trigger: 'manual',
            reason: 'exit',
          }),
        );
    const target = fc
      .tuple(
        fc.constantFrom('claude-code', 'codex', 'claude-code', 'codex', 'nosuch'),
        fc.constantFrom(...events, 'Bogus'),
      )
      .chain(([harness, event]) =>
        fc.tuple(
          fc.constant([harness, event] as const),
          fc.oneof(
            { weight: 2, arbitrary: wellFormed(event) },
            { weight: 1, arbitrary: malformed },
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(target, async ([[harness, event], stdin]) => {
        const memory = await memorySnapshot(project.root);
        const run = await runInProcess(project.root, ['hook', harness, event], stdin);
        expect(run.code).toBe(0);
        if (run.stderr) {
          expectErrorLine(run.stderr, `cairn hook ${harness} ${event}: `);
          expect(await memorySnapshot(project.root)).toEqual(memory);
        } else if (run.stdout && (event === 'SessionStart' || event === 'UserPromptSubmit')) {
          const reply = JSON.parse(run.stdout);
          expect(reply).toBeTypeOf('object');
          // Whatever the payload held, what is injected forges nothing (docs/SECURITY.md "Escaping").
          const injected = reply.hookSpecificOutput?.additionalContext;
          if (typeof injected === 'string') expect(injectionForgeries(injected)).toEqual([]);
        }
        await expectHealthyWorkspace(project.root);
      }),
      FUZZ_RUNS,
    );
  }, 120_000);

  it('links: wherever a repository puts one under .cairn/, no command or hook reads or writes through it', async () => {
    const outside = await makeLinkTargets();
    const hookCase = fc
      .constantFrom('SessionStart', 'UserPromptSubmit', 'PostToolUse', 'SessionEnd')
      .map(
        (event): CliCase => ({
          argv: ['hook', 'claude-code', event],
          stdin: JSON.stringify({
            hook_event_name: event,
            session_id: 's-link',
            transcript_path: join(project.root, 'transcript.jsonl'),
            cwd: project.root,
            source: 'startup',
            prompt: 'where does kestrel run',
            tool_name: 'Bash',
            tool_input: { command: 'ls' },
            tool_response: { stdout: 'ok' },
            reason: 'exit',
          }),
          kind: 'write',
        }),
      );
    const command = fc.oneof(
      cliCase,
      hookCase,
      fc
        .constantFrom<string[]>(['init'], ['status'], ['doctor'], ['reindex'], ['pack', 'kestrel'])
        .map((argv): CliCase => ({ argv, kind: 'read' })),
    );
    try {
      await fc.assert(
        fc.asyncProperty(linkSpot, linkTarget, command, async (spot, target, input) => {
          const before = await snapshotTree(outside.root);
          const run = await withLink(project.root, spot, target, outside.root, () =>
            runInProcess(project.root, input.argv, input.stdin),
          );
          expect([0, 1, 2]).toContain(run.code);
          expect(`${run.stdout}${run.stderr}`).not.toContain(OUTSIDE_MARKER);
          const hook = input.argv[0] === 'hook';
          if (hook) expect(run.code).toBe(0);
          if (run.code !== 0 && !run.stdout) expectErrorLine(run.stderr);
          if (hook && run.stderr)
            expectErrorLine(run.stderr, `cairn hook claude-code ${input.argv[2]}: `);
          expect(await snapshotTree(outside.root)).toEqual(before);
        }),
        { ...FUZZ_RUNS, numRuns: Math.ceil(FUZZ_RUNS.numRuns / 2) },
      );
    } finally {
      await outside.cleanup();
    }
  }, 120_000);
});
