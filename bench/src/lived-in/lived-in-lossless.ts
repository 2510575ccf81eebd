import { openLineageStore } from '@cairn/engine';
import { createRandom } from '../scale/text-generator';
import { type LivedInWorld, planSession } from './lived-in-generator';

export interface LosslessFigures {
  sampled: number;
  intact: number;
  /** Sampled outputs longer than 4,000 characters, and how many of those came back whole. */
  long: number;
  longIntact: number;
  /** Sampled events whose transcript entry was not found at all. */
  missing: number;
  firstLoss: string | undefined;
}

/** About `count` (session, tool call) pairs spread evenly over the year, seeded. */
export function losslessSample(
  world: LivedInWorld,
  count: number,
): { session: number; tool: number }[] {
  const random = createRandom(world.seed + 7);
  const tools = world.spec.promptsPerSession * world.spec.toolsPerPrompt;
  return Array.from({ length: count }, (_, k) => ({
    session: Math.min(world.spec.sessions - 1, Math.floor((k * world.spec.sessions) / count)),
    tool: Math.floor(random() * tools),
  }));
}

/**
 * Tier 3 read back through the engine's lineage API: for each sampled tool
 * call, the output string as the harness delivered it must appear whole in
 * the text of its transcript entry.
 */
export function checkLossless(
  rootDir: string,
  world: LivedInWorld,
  count: number,
): LosslessFigures {
  const figures: LosslessFigures = {
    sampled: 0,
    intact: 0,
    long: 0,
    longIntact: 0,
    missing: 0,
    firstLoss: undefined,
  };
  const store = openLineageStore(rootDir);
  try {
    for (const pick of losslessSample(world, count)) {
      const session = planSession(world, pick.session);
      const event = session.events.find((e) => e.kind === 'tool' && e.toolIndex === pick.tool);
      if (event?.kind !== 'tool') continue;
      figures.sampled += 1;
      const long = event.output.length > 4000;
      if (long) figures.long += 1;
      const transcript = store.getTranscript(session.agentId, session.sessionKey, { limit: 1000 });
      const entry = transcript?.entries.filter((e) => e.role === 'tool')[pick.tool];
      if (!entry) {
        figures.missing += 1;
        figures.firstLoss ??= `${session.sessionKey} tool ${pick.tool}: no transcript entry`;
        continue;
      }
      if (entry.text.includes(event.output)) {
        figures.intact += 1;
        if (long) figures.longIntact += 1;
      } else {
        figures.firstLoss ??= `${session.sessionKey} tool ${pick.tool} (${event.toolName}): ${event.output.length} characters delivered, entry holds ${entry.text.length}`;
      }
    }
  } finally {
    store.close();
  }
  return figures;
}
