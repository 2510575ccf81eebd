import { openMaintenance } from '@cairn/engine';
import type { CommandSpec } from '../command';

/**
 * `cairn insights run [--if-due]`: one extraction run (docs/MAINTENANCE.md):
 * memory-insights.md, proposals in DREAMS.md and `cairn review`, an entry
 * in memory-audit.md. `--if-due` runs only when the schedule says so (the
 * session-end hook starts it that way, detached). `cairn insights status`:
 * the settings, the plan and the last run.
 */
export const insightsCommand: CommandSpec = {
  name: 'insights',
  summary:
    'Run insight extraction now (`insights run`) or show its schedule and last run (`insights status`)',
  usage: 'cairn insights run [--if-due] [--json] | cairn insights status [--json]',
  options: {
    'if-due': { type: 'boolean', description: 'run only when the schedule says one is due' },
  },
  positionals: { min: 1, max: 1 },
  subcommands: [
    {
      name: 'run',
      usage: 'cairn insights run [--if-due] [--json]',
      summary:
        'One extraction run: memory-insights.md, new proposals in DREAMS.md and `cairn review`, an audit entry (--if-due: only when the schedule says so)',
      options: ['if-due'],
    },
    {
      name: 'status',
      usage: 'cairn insights status [--json]',
      summary: 'The settings, when the next run is due, the last run and the open proposals',
      options: [],
    },
  ],
  async run({ open, positionals, values }) {
    const [action] = positionals;
    const cairn = await open();
    const maintenance = openMaintenance(cairn);
    if (action === 'status') {
      const status = await maintenance.status();
      const run = status.lastRun;
      const lines = [
        `insight extraction: ${status.enabled ? 'enabled' : 'off (insightExtractionEnabled=false; `cairn insights run` still works)'}`,
        `schedule: ${status.schedule}, at least ${status.minIntervalMs} ms apart`,
        status.plan
          ? `next due: ${status.plan.nextDueAt}`
          : 'next due: not planned yet (the first session end after enabling plans it)',
        run
          ? `last run: ${run.finishedAt} (${run.trigger}), ${run.examined.units} units examined, ${Object.values(run.proposed).reduce((a, b) => a + (b ?? 0), 0)} proposed, ${Math.round(run.ms)} ms`
          : 'last run: none',
        `open proposals: ${status.open} (\`cairn review\`)`,
      ];
      return { json: { ok: true, ...status }, text: lines.join('\n') };
    }
    const outcome = await maintenance.run({
      ifDue: values['if-due'] === true,
      trigger: values['if-due'] === true ? 'schedule' : 'manual',
    });
    if (outcome.action === 'not-due') {
      return { json: { ok: true, ...outcome }, text: `not due; next run at ${outcome.nextDueAt}` };
    }
    const { run, proposals } = outcome;
    const text = [
      `ran ${run.runId}: examined ${run.examined.units} units, ${run.examined.digests} run digests, ${run.examined.patterns} fix patterns`,
      `${run.insights} insights in .cairn/memory/memory-insights.md`,
      proposals.length
        ? `${proposals.length} new proposal(s) in DREAMS.md:\n${proposals.map((p) => `  ${p.id} ${p.kind}: ${p.summary}`).join('\n')}`
        : 'no new proposals',
      run.conflicts
        ? `${run.conflicts} open proposal(s) became conflicts (their units changed)`
        : '',
    ].filter(Boolean);
    return { json: { ok: true, action: 'ran', run, proposals }, text: text.join('\n') };
  },
};
