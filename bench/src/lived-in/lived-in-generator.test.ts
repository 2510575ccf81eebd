import { describe, expect, it } from 'vitest';
import { createRandom } from '../scale/text-generator';
import { median } from '../stats';
import {
  capturedBytes,
  createWorld,
  FULL_SPEC,
  MAIN_THREAD,
  planSession,
  QUICK_SPEC,
} from './lived-in-generator';
import { OUTPUT_BYTES, outputSize } from './tool-output';

const world = createWorld(11, FULL_SPEC);
const sessions = Array.from({ length: 40 }, (_, i) => planSession(world, i * 50));

describe('planSession', () => {
  it('is the same for the same seed and index, on a fresh world', () => {
    const again = createWorld(11, FULL_SPEC);
    expect(planSession(again, 1234)).toEqual(planSession(world, 1234));
    expect(planSession(createWorld(12, FULL_SPEC), 1234)).not.toEqual(planSession(world, 1234));
  });

  it('holds five prompts, twenty tool calls and five units, in time order inside the year', () => {
    for (const session of sessions) {
      const kinds = session.events.map((event) => event.kind);
      expect(kinds.filter((kind) => kind === 'prompt')).toHaveLength(5);
      expect(kinds.filter((kind) => kind === 'tool')).toHaveLength(20);
      expect(kinds.filter((kind) => kind === 'unit')).toHaveLength(5);
      const times = [session.startAt, ...session.events.map((event) => event.at), session.endAt];
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(session.threadKey).toMatch(/^[a-z0-9][a-z0-9._-]{0,79}$/);
    }
    const last = planSession(world, FULL_SPEC.sessions - 1);
    expect(last.endAt - world.yearStart).toBeLessThan(366 * 86_400_000);
  });

  it('spreads sessions over agents, the main branch, feature branches and topics', () => {
    const agents = new Set(sessions.map((session) => session.agentId));
    const threads = new Set(sessions.map((session) => session.threadKey));
    expect([...agents].sort()).toEqual(['claude-code', 'codex', 'opencode']);
    expect(threads.has(MAIN_THREAD)).toBe(true);
    expect([...threads].some((thread) => thread.startsWith('lived-in.feat-'))).toBe(true);
    expect([...threads].some((thread) => thread.startsWith('topic-'))).toBe(true);
  });

  it('keeps transcript-only words out of every unit, and puts them in transcripts', () => {
    const rare = new Set(world.transcriptVocabulary);
    for (const session of sessions) {
      for (const event of session.events) {
        if (event.kind !== 'unit') continue;
        for (const word of event.text.toLowerCase().match(/[a-z]+/g) ?? []) {
          expect(rare.has(word)).toBe(false);
        }
      }
      const transcript = session.events
        .map((event) =>
          event.kind === 'tool'
            ? `${JSON.stringify(event.input)} ${event.output}`
            : event.kind === 'prompt'
              ? event.prompt
              : '',
        )
        .join('\n');
      for (const word of session.rareWords) expect(transcript).toMatch(new RegExp(`\\b${word}\\b`));
    }
    expect(sessions.filter((session) => session.rareWords.length > 0).length).toBeGreaterThan(30);
  });
});

describe('tool outputs', () => {
  it('are 0.5 to 20 KB, skewed: median near 1.8 KB, some past 4,000 characters', () => {
    const outputs = sessions.flatMap((session) =>
      session.events.flatMap((event) => (event.kind === 'tool' ? [event.output] : [])),
    );
    const sizes = outputs.map((output) => Buffer.byteLength(output));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(OUTPUT_BYTES.min - 4);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(OUTPUT_BYTES.max);
    expect(median(sizes)).toBeGreaterThan(1_200);
    expect(median(sizes)).toBeLessThan(2_600);
    const long = outputs.filter((output) => output.length > 4000).length / outputs.length;
    expect(long).toBeGreaterThan(0.08);
    expect(long).toBeLessThan(0.3);
    const names = new Set(
      sessions.flatMap((s) => s.events.flatMap((e) => (e.kind === 'tool' ? [e.toolName] : []))),
    );
    expect([...names].sort()).toEqual(['Bash', 'Edit', 'Glob', 'Grep', 'Read']);
  });

  it('draws sizes inside the clip', () => {
    const random = createRandom(3);
    for (let i = 0; i < 2_000; i += 1) {
      const size = outputSize(random);
      expect(size).toBeGreaterThanOrEqual(OUTPUT_BYTES.min);
      expect(size).toBeLessThanOrEqual(OUTPUT_BYTES.max);
    }
  });

  it('counts captured bytes as UTF-8', () => {
    const session = planSession(createWorld(5, QUICK_SPEC), 0);
    const bytes = capturedBytes(session);
    const outputs = session.events.reduce(
      (sum, event) => sum + (event.kind === 'tool' ? Buffer.byteLength(event.output) : 0),
      0,
    );
    expect(bytes.toolOutputs).toBe(outputs);
    expect(bytes.prompts).toBeGreaterThan(0);
    expect(bytes.units).toBeGreaterThan(0);
  });
});
