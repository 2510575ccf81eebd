import {
  type EventFidelity,
  type FidelityCell,
  HARNESS_EVENTS,
  type HarnessDeclaration,
} from '@cairn/core';
import { markdownTable } from './markers';
import { camelCase, importPackage, packageFolders } from './workspace-packages';

const EVENT_LABELS: Record<(typeof HARNESS_EVENTS)[number], string> = {
  sessionStart: 'Session start',
  userPromptSubmit: 'Prompt submit',
  toolUse: 'Tool use',
  preCompaction: 'Pre-compaction',
  compactionComplete: 'Compaction complete',
  sessionEnd: 'Session end',
};

/** The matrix's name for each cell a test can prove. */
export const CELL_LABELS: Record<FidelityCell, string> = {
  ...EVENT_LABELS,
  afterToolInjection: 'Known fix after a failing tool',
};

/** Every harness package's `<id>Fidelity` declaration, by folder order. */
export async function harnessDeclarations(): Promise<HarnessDeclaration[]> {
  const declarations: HarnessDeclaration[] = [];
  for (const folder of packageFolders('harnesses')) {
    const mod = await importPackage(folder.manifest.name);
    const declaration = mod[`${camelCase(folder.id)}Fidelity`] as HarnessDeclaration | undefined;
    if (!declaration)
      throw new Error(`${folder.manifest.name} exports no ${camelCase(folder.id)}Fidelity`);
    declarations.push(declaration);
  }
  return declarations;
}

const code = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');

function cell(fidelity: EventFidelity, note: number | undefined): string {
  if (fidelity.level === 'none') return `none${note ? ` [${note}]` : ''}`;
  const label = fidelity.level === 'full' ? 'full' : `**degraded** [${note}]`;
  return `${label}: ${code(fidelity.via)}`;
}

/**
 * The fidelity matrix (events by harness, with the version each was checked
 * against), then one note per degraded or missing cell and the limits.
 */
export async function harnessFidelityTable(): Promise<string> {
  const declarations = await harnessDeclarations();
  const notes: string[] = [];
  const noteFor = (d: HarnessDeclaration, fidelity: EventFidelity, event: string) => {
    if (fidelity.level === 'full') return undefined;
    const why = fidelity.level === 'degraded' ? fidelity.fallback : fidelity.reason;
    notes.push(`${notes.length + 1}. ${d.name}, ${event.toLowerCase()}: ${why}`);
    return notes.length;
  };
  const header = ['', ...declarations.map((d) => `${d.name} \`${d.checkedVersion}\``)];
  const rows = HARNESS_EVENTS.map((event) => [
    EVENT_LABELS[event],
    ...declarations.map((d) =>
      cell(d.events[event], noteFor(d, d.events[event], EVENT_LABELS[event])),
    ),
  ]);
  const afterTool = CELL_LABELS.afterToolInjection;
  rows.push(
    [
      afterTool,
      ...declarations.map((d) =>
        cell(d.afterToolInjection, noteFor(d, d.afterToolInjection, afterTool)),
      ),
    ],
    ['Live transcript capture', ...declarations.map((d) => d.transcriptCapture)],
    ['Hooks run', ...declarations.map((d) => d.integration.replaceAll('-', ' '))],
    ['Injection channel', ...declarations.map((d) => d.injection)],
    ['Memory tools', ...declarations.map((d) => d.tools)],
  );
  const limits = declarations.flatMap((d) => d.limits.map((limit) => `- ${d.name}: ${limit}`));
  return [
    markdownTable(header, rows),
    '',
    '### Degraded and missing events',
    '',
    ...(notes.length ? notes : ['None.']),
    '',
    '### Known limits',
    '',
    ...(limits.length ? limits : ['None declared.']),
  ].join('\n');
}
