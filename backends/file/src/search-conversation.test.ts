import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSearchIndex, type SearchIndex } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

/*
 * Ranking over a chat log, as LoCoMo asks it (docs/SEARCH.md, "Ranking"):
 * irregular word forms, dates said relative to when a note was written,
 * and the reply to a question.
 */

let project: TempProject;
let index: SearchIndex;
beforeEach(async () => {
  project = await makeTempProject();
  index = openSearchIndex(project.root);
});
afterEach(async () => {
  index.close();
  await project.cleanup();
});

/** Tuesday 18 April 2023. */
const WRITTEN = '2023-04-18T19:34:00.000Z';

const day = (texts: string[]) =>
  writeWorkspaceFile(
    project.root,
    '2023-04-18.md',
    texts.map((text, i) => unit(i + 1, text, { createdAt: WRITTEN })).join('\n'),
  );

const ids = async (query: string) =>
  (await index.search({ query, limit: 10 })).map((hit) => hit.memoryId);

describe('search: a conversation', () => {
  it('finds "went" when asked "go", and "child" when asked "children"', async () => {
    await day([
      'Hiking boots are on sale downtown.',
      'Last weekend Maria and her brother went hiking in the hills near the lake.',
      'Children under twelve ride the ferry for free.',
      'Melanie said her child painted a sunset at school this spring.',
    ]);
    expect((await ids('did Maria go hiking'))[0]).toBe(unitId(2));
    expect((await ids('when did they go hiking'))[0]).toBe(unitId(2));
    expect(await ids('what did the child paint')).toContain(unitId(4));
  });

  it('finds a note that says "last month" by the month it was written about', async () => {
    await day([
      'The convention center is downtown.',
      'We went to a big gaming convention last month and met the developers.',
    ]);
    // Written in April 2023: "last month" is March 2023.
    expect((await ids('gaming convention in March 2023'))[0]).toBe(unitId(2));
    expect((await ids('convention march 2023'))[0]).toBe(unitId(2));
  });

  it('ranks the reply to a question about the thing asked among the first', async () => {
    await day([
      'Caroline: My aunt lives in Ohio with her two dogs.',
      'Melanie: The weather was cold all week, so we stayed in.',
      'Melanie: What got you into pottery in the first place?',
      'Caroline: My aunt taught me on her wheel when I was ten.',
    ]);
    const ranked = await ids('who taught Caroline pottery');
    expect(ranked.indexOf(unitId(4))).toBeLessThan(ranked.indexOf(unitId(1)));
  });
});
