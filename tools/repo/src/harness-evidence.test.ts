import { describe, expect, it } from 'vitest';
import { fidelityPage } from './harness-evidence';
import { harnessDeclarations } from './harness-tables';

describe('the fidelity page of the docs site', () => {
  it('joins the matrix to each harness evidence: pinned version, e2e tests, last change', async () => {
    const page = await fidelityPage();
    expect(page).toContain('| Session start |');
    for (const declaration of await harnessDeclarations()) {
      const section = page.split(`### ${declaration.name}\n`)[1]?.split('\n### ')[0] ?? '';
      expect(section, declaration.name).toContain(`@${declaration.checkedVersion}\``);
      expect(section, declaration.name).toMatch(
        /- `harnesses\/[^`]+\.e2e\.test\.ts` \(last changed \d{4}-\d\d-\d\d\)\n {2}- \S/,
      );
    }
  });
});
