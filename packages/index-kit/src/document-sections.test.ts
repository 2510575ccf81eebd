import { describe, expect, it } from 'vitest';
import { documentSectionChunks, SECTION_MAX_CHARS } from './document-sections';

const README = `---
title: not a section
---
# Ky

Intro line.

Install
-------

\`\`\`sh
# not a heading: a comment in a fence
npm install ky
\`\`\`

## Hooks

### onDownloadProgress

Called with the progress when the response has a Content-Length.
`;

describe('document sections, by a Markdown parser', () => {
  it('finds ATX and setext headings, never a # inside a fence, and skips front matter', async () => {
    const chunks = await documentSectionChunks(README, 'readme.md');
    expect(chunks.map((c) => c.text.split('\n')[0])).toEqual([
      '# Ky',
      'Install',
      '## Hooks',
      '### onDownloadProgress',
    ]);
    const install = chunks[1]!;
    // The whole section, its code block whole: not cut at a snippet's length.
    expect(install.text).toContain('# not a heading: a comment in a fence\nnpm install ky\n```');
    expect(install).toMatchObject({ kind: 'RAW', path: 'readme.md', startLine: 8 });
    expect(chunks.some((c) => c.text.includes('title: not a section'))).toBe(false);
  });

  it('cuts a long section at block boundaries, each part named by the heading again', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30)}`);
    const code = ['```js', ...Array.from({ length: 400 }, (_, i) => `call(${i});`), '```'];
    const text = `## Long\n\n${paragraphs.join('\n\n')}\n\n${code.join('\n')}\n`;
    const chunks = await documentSectionChunks(text, 'docs/long.md');
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('## Long\n')).toBe(true);
      expect(chunk.text.length).toBeLessThanOrEqual(SECTION_MAX_CHARS);
      // A fence opened in a part is closed in it.
      expect((chunk.text.match(/^```/gm) ?? []).length % 2).toBe(0);
      expect(chunk.text).not.toMatch(/Paragraph \d+ (word ){0,29}$/m);
    }
  });

  it('sections a document full of nested list markers by a line scan, in linear time', async () => {
    // The parser took 17 s on the list below and 20 s on the line of markers: a prompt waited for it.
    const nested = Array.from({ length: 8000 }, () => '- - x').join('\n');
    const text = `${README}\n## Nested\n\n${nested}\n\n${'- '.repeat(8000)}x\n\n\`\`\`\n# in a fence\n\`\`\`\n\n## Last\n\nThe end.\n`;
    const chunks = await documentSectionChunks(text, 'readme.md');
    const headings = [...new Set(chunks.map((c) => c.text.split('\n')[0]))];
    expect(headings).toEqual([
      '# Ky',
      'Install',
      '## Hooks',
      '### onDownloadProgress',
      '## Nested',
      '## Last',
    ]);
    expect(chunks.at(-1)).toMatchObject({ text: '## Last\n\nThe end.' });
    expect(chunks.some((c) => c.text.includes('title: not a section'))).toBe(false);
    expect(chunks.some((c) => c.text.includes('# not a heading: a comment in a fence'))).toBe(true);
  });

  it('reads a run of brackets without parsing it as links', async () => {
    const text = `# Brackets\n\n${'['.repeat(20_000)}x${']('.repeat(20_000)}\n\n## After\n\nok\n`;
    const chunks = await documentSectionChunks(text, 'b.md');
    expect([...new Set(chunks.map((c) => c.text.split('\n')[0]))]).toEqual([
      '# Brackets',
      '## After',
    ]);
  });
});
