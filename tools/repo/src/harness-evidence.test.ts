import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredHarnesses, evidenceProblems, fidelityPage } from './harness-evidence';
import { REPORT_FILE, readReport, testStamp, type VitestReport } from './test-reports';

describe('the fidelity matrix joined to its evidence', () => {
  it('every full or degraded cell of every harness names an e2e test its file holds', async () => {
    const harnesses = await declaredHarnesses();
    expect(harnesses.length).toBeGreaterThan(0);
    for (const { declaration, folder } of harnesses) {
      expect(evidenceProblems(declaration, join(folder.dir, 'src')), declaration.id).toEqual([]);
    }
  });

  it('refuses a supported cell with no test, a missing file and a title its file does not hold', async () => {
    const [first] = await declaredHarnesses();
    const { declaration, folder } = first!;
    const src = join(folder.dir, 'src');
    const evidence = declaration.evidence!;
    const broken = {
      ...declaration,
      evidence: {
        ...evidence,
        sessionStart: undefined,
        userPromptSubmit: { file: 'gone.e2e.test.ts', test: 'anything' },
        toolUse: { ...evidence.toolUse!, test: `${evidence.toolUse!.test} (renamed)` },
        sessionEnd: { ...evidence.sessionEnd!, file: 'deliver.test.ts' },
      },
    };
    const problems = evidenceProblems(broken, src);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/sessionStart is full but names no e2e test/);
    expect(problems.join('\n')).toMatch(/userPromptSubmit names gone\.e2e\.test\.ts, which is not/);
    expect(problems.join('\n')).toMatch(/toolUse names the test ".* \(renamed\)", which/);
    expect(problems.join('\n')).toMatch(/sessionEnd names deliver\.test\.ts, not an e2e test file/);
  });

  it("the site's page shows per cell the pinned version, the test file and this build's result", async () => {
    const page = await fidelityPage({ where: 'in CI', commit: 'abc1234567' });
    expect(page).toContain('| Session start |');
    for (const { declaration } of await declaredHarnesses()) {
      const section = page.split(`### ${declaration.name}\n`)[1]?.split('\n### ')[0] ?? '';
      expect(section, declaration.name).toContain(`@${declaration.checkedVersion}\``);
      expect(section, declaration.name).toMatch(
        /\| Session start \| (full|degraded) \| \[[^\]]+\.e2e\.test\.ts\]\(\.\.\/harnesses\/[^)]+\.e2e\.test\.ts\): .+ \| (passed|failed|skipped|not run)/,
      );
    }
  });
});

describe('stamps from a vitest report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const day = Date.parse('2026-11-28T10:00:00Z');
  const report: VitestReport = {
    startTime: day,
    testResults: [
      {
        name: '/repo/harnesses/codex/src/codex.e2e.test.ts',
        startTime: day,
        assertionResults: [
          { title: 'run 1', status: 'passed' },
          { title: 'run 2', status: 'failed' },
          { title: 'run 3', status: 'skipped' },
        ],
      },
    ],
  };
  const ci = { where: 'in CI', commit: 'abc1234567' };

  it('says passed, failed, skipped, or not run in this build', () => {
    expect(testStamp(report, 'codex.e2e.test.ts', 'run 1', ci)).toBe(
      'passed in CI on 2026-11-28 (abc1234567)',
    );
    expect(testStamp(report, 'codex.e2e.test.ts', 'run 2', ci)).toBe(
      'failed in CI on 2026-11-28 (abc1234567)',
    );
    expect(testStamp(report, 'codex.e2e.test.ts', 'run 3', ci)).toBe('skipped in this build');
    expect(testStamp(report, 'codex.e2e.test.ts', 'run 4', ci)).toBe('not run in this build');
    expect(testStamp(report, 'other.e2e.test.ts', 'run 1', ci)).toBe('not run in this build');
    expect(testStamp(undefined, 'codex.e2e.test.ts', 'run 1', ci)).toBe('not run in this build');
  });

  it("reads a package's `.vitest-report.json`, and nothing where there is none", () => {
    expect(readReport(dir)).toBeUndefined();
    writeFileSync(join(dir, REPORT_FILE), JSON.stringify(report));
    expect(readReport(dir)?.testResults[0]?.assertionResults).toHaveLength(3);
  });
});
