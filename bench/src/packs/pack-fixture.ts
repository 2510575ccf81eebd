import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRandom, createTextGenerator } from '../scale/text-generator';

/** The pack bench's project: the lived-in project plus this many Beads issues and documents. */
export const BEADS_ISSUES = 500;
export const DOCUMENTS = 200;

const STATUSES = ['open', 'open', 'open', 'in_progress', 'closed', 'blocked'];
const TYPES = ['task', 'bug', 'feature', 'chore'];

export const beadsId = (n: number) => `bd-${(n + 1).toString(36).padStart(3, '0')}`;

/**
 * A Beads export in its own format (`types.Issue` JSON, one per line):
 * epics every 25 issues, each issue a child of its epic, and about a third
 * blocked by an earlier issue.
 */
export function beadsExport(count: number, seed: number): string {
  const random = createRandom(seed);
  const text = createTextGenerator(seed);
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
  const lines: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const epic = n % 25 === 0;
    const parent = epic ? undefined : n - (n % 25);
    const dependencies = [
      ...(parent === undefined
        ? []
        : [{ issue_id: beadsId(n), depends_on_id: beadsId(parent), type: 'parent-child' }]),
      ...(n > 1 && random() < 0.35
        ? [
            {
              issue_id: beadsId(n),
              depends_on_id: beadsId(Math.floor(random() * n)),
              type: 'blocks',
            },
          ]
        : []),
    ];
    lines.push(
      JSON.stringify({
        id: beadsId(n),
        title: text.sentence(),
        description: text.paragraph(),
        design: random() < 0.4 ? text.paragraph() : '',
        acceptance_criteria: random() < 0.6 ? `- ${text.sentence()}\n- ${text.sentence()}` : '',
        notes: '',
        status: epic ? 'open' : STATUSES[Math.floor(random() * STATUSES.length)],
        priority: Math.floor(random() * 5),
        issue_type: epic ? 'epic' : TYPES[Math.floor(random() * TYPES.length)],
        created_at: at(n),
        updated_at: at(n + 1),
        dependencies,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** 200 Markdown documents under docs/ (and a few ADRs), each with headings and sections. */
export function documents(count: number, seed: number): Record<string, string> {
  const random = createRandom(seed);
  const text = createTextGenerator(seed + 1);
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n += 1) {
    const folder =
      n % 10 === 0 ? 'docs/adr' : `docs/${['guides', 'reference', 'ops', 'design'][n % 4]}`;
    const sections = 2 + Math.floor(random() * 5);
    const body = Array.from(
      { length: sections },
      () => `## ${text.heading()}\n\n${text.paragraph()}\n\n${text.paragraph()}\n`,
    );
    files[`${folder}/doc-${String(n).padStart(3, '0')}.md`] =
      `# ${text.sentence()}\n\n${text.paragraph()}\n\n${body.join('\n')}`;
  }
  return files;
}

/** Writes the Beads export and the documents into a project copy. */
export async function writePackFixture(rootDir: string, seed: number): Promise<void> {
  await mkdir(join(rootDir, '.beads'), { recursive: true });
  await writeFile(join(rootDir, '.beads/issues.jsonl'), beadsExport(BEADS_ISSUES, seed));
  for (const [path, content] of Object.entries(documents(DOCUMENTS, seed))) {
    await mkdir(dirname(join(rootDir, path)), { recursive: true });
    await writeFile(join(rootDir, path), content);
  }
}
