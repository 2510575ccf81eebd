import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { appendAudit } from './maintenance-diary';
import { AUDIT_MAX_BYTES } from './maintenance-files';

describe('the audit region', () => {
  let project: TempProject;
  let cairn: Cairn;
  beforeEach(async () => {
    ({ project, cairn } = await openTestProject());
  });
  afterEach(async () => {
    await closeTestProject(project, cairn);
  });

  it('stays within its budget, markers included, however many short entries it holds', async () => {
    const entry = (n: number) => `### Run ${n}\n\n- examined: 12 units`;
    for (let batch = 0; batch < 4; batch += 1) {
      const entries = Array.from({ length: 500 }, (_, i) => entry(batch * 500 + i));
      await appendAudit(cairn.writer, entries);
    }
    const text = await readFile(join(project.root, '.cairn', 'memory', 'memory-audit.md'), 'utf8');
    const start = text.indexOf('<!-- cairn:audit:start -->');
    const end = text.indexOf('<!-- cairn:audit:end -->') + '<!-- cairn:audit:end -->'.length;
    expect(start).toBeGreaterThanOrEqual(0);
    expect(Buffer.byteLength(text.slice(start, end))).toBeLessThanOrEqual(AUDIT_MAX_BYTES);
    expect(text).toContain('older entr(ies) pruned');
    expect(text).toContain(entry(1999));
  });
});
