import type { ProjectLocation } from '@cairn/engine';
import type { CommandSpec } from '../command';
import { HARNESS_IDS } from '../harnesses';

/** What a new project does next, as `cairn init` prints it. */
export const NEXT_STEPS: readonly [command: string, what: string][] = [
  [`cairn install <harness>`, `wire an agent in: ${HARNESS_IDS.join(', ')}`],
  ['cairn add "We use pnpm workspaces"', 'remember something yourself'],
  ['cairn search pnpm', 'find it again (what agents get is `cairn pack --last`)'],
  ['cairn ui', 'browse and review the memory in the dashboard'],
];

/** Where init put `.cairn/` when that is not the folder it ran in. */
function placeNote(location: ProjectLocation): string[] {
  if (location.start === location.root) return [];
  return [
    `  (the top of the git repository, not ${location.start}: \`cairn init --root .\` there makes a project of that folder alone)`,
  ];
}

export const initCommand: CommandSpec = {
  name: 'init',
  summary: 'Create .cairn/ in the project: MEMORY.md, DREAMS.md and .gitignore',
  usage: 'cairn init [--root <dir>] [--json]',
  details: [
    'Without --root, the project is the top folder of the git repository the current',
    'folder is in (or the current folder outside git); every later command finds it',
    'from any folder below. Running it again changes nothing.',
  ].join('\n'),
  options: {},
  positionals: { min: 0, max: 0 },
  opensUninitialized: true,
  async run({ open, location }) {
    const cairn = await open();
    const result = await cairn.init();
    const lines = result.created.length
      ? result.created.map((path) => `  created ${path}`)
      : ['  already initialized; nothing changed'];
    const width = Math.max(...NEXT_STEPS.map(([command]) => command.length));
    return {
      json: {
        ok: true,
        rootDir: result.rootDir,
        created: result.created,
        nextSteps: NEXT_STEPS.map(([command]) => command),
        warnings: cairn.warnings,
      },
      text: [
        `Cairn memory in ${result.rootDir}`,
        ...placeNote(location),
        ...lines,
        '',
        'Next steps:',
        ...NEXT_STEPS.map(([command, what]) => `  ${command.padEnd(width)}  ${what}`),
        '',
        'More: docs/GETTING-STARTED.md',
      ].join('\n'),
    };
  },
};
