import { z } from 'zod';
import { previousSection, type Table } from '../report';

/** What one checkout's `pnpm bench <section> --json` run reported, as the compare reads it. */
export interface SideReport {
  /** Short commit of the checkout that ran, with its start time and load. */
  commit: string;
  dirty: boolean;
  date: string;
  loadAverage: number;
  /** The tables of each section the run measured, as it printed them. */
  tables: Record<string, Table[]>;
}

const TableSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  notes: z.array(z.string()).optional(),
});

/** Only what the compare needs: an older bench writes more (the raw figures), never less of this. */
const JsonReportSchema = z.object({
  meta: z.object({
    commit: z.string(),
    dirty: z.boolean().optional(),
    date: z.string(),
    loadAverage: z.number(),
  }),
  tables: z.record(z.string(), z.array(TableSchema)).optional(),
});

/**
 * Reads a bench's JSON report. A bench older than the compare writes no
 * tables into its JSON, only into its own docs/BENCHMARKS.md: `doc` is that
 * file, read for every `wanted` section the JSON lacks.
 */
export function readSideReport(json: string, wanted: string[], doc?: string): SideReport {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new Error(`the bench's JSON report is not JSON (${(error as Error).message})`);
  }
  const parsed = JsonReportSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`the bench's JSON report has no usable meta: ${parsed.error.message}`);
  }
  const { meta } = parsed.data;
  const tables: Record<string, Table[]> = { ...parsed.data.tables };
  for (const name of wanted) {
    if (tables[name]) continue;
    const fromDoc = doc === undefined ? undefined : docTables(doc, name, meta);
    if (fromDoc) tables[name] = fromDoc;
  }
  return {
    commit: meta.commit,
    dirty: meta.dirty ?? false,
    date: meta.date,
    loadAverage: meta.loadAverage,
    tables,
  };
}

/** `| a | b \| c |` → ['a', 'b | c']: cells split on unescaped pipes, as report.ts escapes them. */
export function splitMarkdownRow(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

const isRule = (line: string) => /^\|(\s*---\s*\|)+$/.test(line.trim());

/**
 * The tables of one section of a BENCHMARKS.md, as report.ts renders them
 * (`### title`, header, rule, rows, `- notes`), or undefined when the
 * section was not written by the run `meta` describes (a stale section
 * from an earlier run must not pass for this one's figures).
 */
export function docTables(
  doc: string,
  name: string,
  meta: { commit: string; date: string },
): Table[] | undefined {
  const section = previousSection(doc, name);
  if (!section) return undefined;
  const when = `${meta.date.slice(0, 16).replace('T', ' ')} UTC`;
  const measured = section.split('\n').find((line) => line.startsWith('_Measured '));
  if (!measured?.includes(when) || !measured.includes(`commit ${meta.commit}`)) return undefined;
  const tables: Table[] = [];
  const lines = section.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const title = lines[i]!.match(/^### (.*)$/)?.[1];
    if (title === undefined || !lines[i + 2]?.startsWith('|') || !isRule(lines[i + 3] ?? '')) {
      continue;
    }
    const table: Table = { title, columns: splitMarkdownRow(lines[i + 2]!), rows: [] };
    let j = i + 4;
    for (; lines[j]?.startsWith('|'); j += 1) table.rows.push(splitMarkdownRow(lines[j]!));
    tables.push(table);
    i = j - 1;
  }
  return tables;
}
