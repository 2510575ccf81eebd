import { readFileSync } from 'node:fs';
import { CAIRN_ERROR_CODES, CairnError } from '@cairn/core';
import { UNIT_ERROR_CODES } from '@cairn/engine';
import { describe, expect, it } from 'vitest';
import { UNIT_EXIT_CODES, unitErrorLineCode } from './commands/unit-outcome';
import { exitCodeFor } from './exit-codes';

const cliDoc = readFileSync(new URL('../../../docs/CLI.md', import.meta.url), 'utf8');

/** The rows of the markdown table whose header's last column is `column`: exit code → codes. */
function table(column: string): Map<number, string[]> {
  const lines = cliDoc.split('\n');
  const header = lines.findIndex((line) => /^\|.*\|$/.test(line) && line.includes(`| ${column}`));
  expect(header, `a table with the column "${column}" in docs/CLI.md`).toBeGreaterThan(-1);
  const rows = new Map<number, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    rows.set(
      Number(cells[1]),
      [...(cells.at(-2) ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!),
    );
  }
  return rows;
}

describe('docs/CLI.md lists every code a user can see, with its exit code', () => {
  it.each(CAIRN_ERROR_CODES)('error code %s', (code) => {
    const exit = exitCodeFor(new CairnError(code, 'x'));
    expect(table('Error codes').get(exit)).toContain(code);
  });

  it.each(UNIT_ERROR_CODES)('unit code %s', (code) => {
    expect(table('Unit codes').get(UNIT_EXIT_CODES[code])).toContain(unitErrorLineCode(code));
  });

  it('lists no code that does not exist', () => {
    const known = new Set<string>([...CAIRN_ERROR_CODES]);
    const units = new Set(UNIT_ERROR_CODES.map(unitErrorLineCode));
    for (const codes of table('Error codes').values())
      for (const c of codes) expect(known).toContain(c);
    for (const codes of table('Unit codes').values())
      for (const c of codes) expect(units).toContain(c);
  });
});
