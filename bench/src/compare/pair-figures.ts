import type { Table } from '../report';

/** One figure of a table: a cell named by its table, its row and (when the row has several) its column. */
export interface Figure {
  table: string;
  /** The row's name within its table, then the column's when the row holds more than one figure. */
  name: string;
  value: string;
  /** The row's Target cell ('' when it has none). */
  target: string;
  /** The row's verdict (PASS, MISS, info, or '' when it has none). */
  result: string;
}

/** A figure as both checkouts measured it; a side that did not measure it is undefined. */
export interface FigurePair {
  table: string;
  name: string;
  before: Figure | undefined;
  after: Figure | undefined;
}

const TARGET_COLUMNS = new Set(['target', 'budget']);
const RESULT_COLUMNS = new Set(['result', 'verdict']);
const isTarget = (column: string) => TARGET_COLUMNS.has(column.trim().toLowerCase());
const isResult = (column: string) => RESULT_COLUMNS.has(column.trim().toLowerCase());

/** A label, not a measurement: no digit in any of the column's cells. */
const labelColumn = (rows: string[][], index: number) =>
  rows.every((row) => !/\d/.test(row[index] ?? ''));

/**
 * How many leading columns name a row: the first, then the next ones while
 * rows still repeat and the column is a label (Harness, then Event), so
 * a value that changed between the runs never changes a figure's name.
 */
function keyWidth(table: Table, valueColumns: number[]): number {
  let width = 1;
  const unique = () =>
    new Set(table.rows.map((row) => row.slice(0, width).join(' › '))).size === table.rows.length;
  while (
    !unique() &&
    valueColumns.includes(width) &&
    valueColumns.length > 1 &&
    labelColumn(table.rows, width)
  ) {
    width += 1;
  }
  return width;
}

/** Rows still sharing a name get their target, then their place among the namesakes. */
function rowNames(table: Table, width: number, targetAt: number): string[] {
  const base = table.rows.map((row) => row.slice(0, width).join(' › '));
  const withTarget = base.map((name, i) => {
    const target = targetAt === -1 ? '' : (table.rows[i]![targetAt] ?? '');
    return base.filter((other) => other === name).length > 1 && target
      ? `${name} (${target})`
      : name;
  });
  const seen = new Map<string, number>();
  return withTarget.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    const total = withTarget.filter((other) => other === name).length;
    return total > 1 ? `${name} #${count}` : name;
  });
}

/** Every figure of a table; a row with a verdict and several figures gets its verdict as one more figure. */
export function tableFigures(table: Table): Figure[] {
  const targetAt = table.columns.findIndex(isTarget);
  const resultAt = table.columns.findIndex(isResult);
  const others = table.columns
    .map((_, i) => i)
    .filter((i) => i !== targetAt && i !== resultAt && i > 0);
  const width = keyWidth(table, others);
  const values = others.filter((i) => i >= width);
  const names = rowNames(table, width, targetAt);
  return table.rows.flatMap((row, r) => {
    const target = targetAt === -1 ? '' : (row[targetAt] ?? '');
    const result = resultAt === -1 ? '' : (row[resultAt] ?? '');
    const single = values.length === 1 && table.columns[values[0]!] === 'Figure';
    const cells = values.map((i) => ({
      table: table.title,
      name: single ? names[r]! : `${names[r]} › ${table.columns[i]}`,
      value: row[i] ?? '',
      target: values.length === 1 ? target : '',
      result: values.length === 1 ? result : '',
    }));
    if (values.length !== 1 && (target || result)) {
      const name = `${names[r]} › ${table.columns[resultAt] ?? 'Result'}`;
      cells.push({ table: table.title, name, value: result, target, result });
    }
    return cells;
  });
}

const pairKey = (figure: { table: string; name: string }) => `${figure.table}\u0000${figure.name}`;

/**
 * Pairs the figures of one section by table title and figure name. Order:
 * the after run's, with figures only the before run had placed after the
 * last figure of their table that both runs share; none is dropped.
 */
export function pairFigures(before: Table[], after: Table[]): FigurePair[] {
  const beforeFigures = before.flatMap(tableFigures);
  const afterFigures = after.flatMap(tableFigures);
  const byKey = new Map(beforeFigures.map((figure) => [pairKey(figure), figure]));
  const pairs: FigurePair[] = afterFigures.map((figure) => ({
    table: figure.table,
    name: figure.name,
    before: byKey.get(pairKey(figure)),
    after: figure,
  }));
  const paired = new Set(afterFigures.map(pairKey));
  for (const figure of beforeFigures) {
    if (paired.has(pairKey(figure))) continue;
    const lastOfTable = pairs.findLastIndex((pair) => pair.table === figure.table);
    const at = lastOfTable === -1 ? pairs.length : lastOfTable + 1;
    pairs.splice(at, 0, {
      table: figure.table,
      name: figure.name,
      before: figure,
      after: undefined,
    });
  }
  return pairs;
}
