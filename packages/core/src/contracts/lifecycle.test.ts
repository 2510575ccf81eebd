import { describe, expect, it } from 'vitest';
import { HARNESS_EVENTS } from './harness';
import {
  LIFECYCLE_EVENT_NAMES,
  LIFECYCLE_EVENTS,
  lifecycleEventByCliName,
  parseLifecycleInput,
} from './lifecycle';

describe('LIFECYCLE_EVENTS', () => {
  it('gives each event one name, one CLI name and one schema', () => {
    expect(LIFECYCLE_EVENT_NAMES).toEqual([
      'sessionStart',
      'userPromptSubmit',
      'toolUse',
      'preCompaction',
      'compactionComplete',
      'sessionEnd',
    ]);
    expect(HARNESS_EVENTS).toEqual(LIFECYCLE_EVENT_NAMES);
    const cliNames = LIFECYCLE_EVENT_NAMES.map((event) => LIFECYCLE_EVENTS[event].cliName);
    // The names users have in hook configs (`cairn lifecycle <name>`).
    expect(cliNames).toEqual([
      'session-start',
      'user-prompt-submit',
      'tool-use',
      'pre-compaction',
      'compaction-complete',
      'session-end',
    ]);
    for (const event of LIFECYCLE_EVENT_NAMES) {
      expect(lifecycleEventByCliName(LIFECYCLE_EVENTS[event].cliName)).toBe(event);
    }
    expect(lifecycleEventByCliName('promptSubmit')).toBeUndefined();
  });

  it('parses a payload with the schema of its event, extra harness fields ignored', () => {
    const { schema, cliName } = LIFECYCLE_EVENTS.userPromptSubmit;
    const input = { agentId: 'a', sessionKey: 's', prompt: 'hi', hook_event_name: 'x' };
    expect(parseLifecycleInput(schema, input, cliName)).toEqual({
      agentId: 'a',
      sessionKey: 's',
      prompt: 'hi',
    });
    expect(() => parseLifecycleInput(schema, { agentId: 'a', prompt: 'hi' }, cliName)).toThrow(
      /user-prompt-submit payload: sessionKey/,
    );
  });
});
