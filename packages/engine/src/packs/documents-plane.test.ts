import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { documentCandidates } from './documents-plane';
import { renderPackItem } from './render-pack';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  project = await makeTempProject('cairn-documents-plane-');
  cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

const SECTION = [
  'Progress events',
  '---------------',
  '',
  `The progress callback reports every chunk. ${'It is called with a progress object and the chunk. '.repeat(6)}`,
  '',
  '```js',
  'const response = await ky(url, {',
  '  onDownloadProgress(progress, chunk) {',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the document's code is JavaScript
  '    console.log(`${progress.percent * 100}% done`);',
  '  },',
  '});',
  '```',
].join('\n');

describe('the documents plane', () => {
  it('quotes a whole section of readme.md, code block included, named path#heading', async () => {
    // The reproduction of the issue: `readme.md` was missed by `README*`, and a section was cut
    // at about 320 characters, before the code that answers.
    await writeFile(
      join(project.root, 'readme.md'),
      `# Ky\n\nIntro.\n\n${SECTION}\n\n## Other\n\nUnrelated.\n`,
    );
    const [first] = await documentCandidates(
      (query) => cairn.recall(query),
      'onDownloadProgress progress callback chunk',
      'claude',
    );
    expect(first).toMatchObject({
      plane: 'documents',
      trustClass: 'raw',
      provenance: { kind: 'document', id: 'readme.md#Progress events', file: 'readme.md', line: 5 },
    });
    expect(first!.text.length).toBeGreaterThan(320);
    expect(first!.text).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the document's code is JavaScript
      'console.log(`${progress.percent * 100}% done`);\n  },\n});\n```',
    );
    const rendered = renderPackItem(first!);
    expect(rendered).toMatch(/^- \[project document, quoted · document readme\.md#Progress events/);
    expect(rendered).toContain('  > ```js');
    expect(rendered).not.toMatch(/untrusted|\\[#`]/);
    const status = await cairn.status();
    const pools = status.retrievalAdapter.status?.details?.enginePools as {
      id: string;
      documents?: number;
      sections?: number;
    }[];
    expect(pools.find((pool) => pool.id === 'documents')).toMatchObject({
      documents: 1,
      sections: 3,
    });
  });
});
