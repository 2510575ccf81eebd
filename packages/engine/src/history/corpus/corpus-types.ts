/** What changes between two runs of one failure: where, when, and random names. */
export interface Volatile {
  root: string;
  home: string;
  line: number;
  col: number;
  line2: number;
  ms: number;
  port: number;
  sha: string;
  pid: number;
  tmp: string;
  uuid: string;
  time: string;
  addr: string;
}

export const RUN_A: Volatile = {
  root: '/home/alice/work/shop',
  home: '/home/alice',
  line: 12,
  col: 5,
  line2: 88,
  ms: 34,
  port: 3000,
  sha: '3f2a1b9c',
  pid: 41234,
  tmp: 'tmp-41234-Xa81kq0Zb3',
  uuid: '0f42c8fe-6cd5-4809-b57d-f1d3d9c41ae8',
  time: '2026-11-25T17:43:12.120Z',
  addr: '0x7ffd5a3c1e40',
};

export const RUN_B: Volatile = {
  root: '/Users/bob/src/github.com/acme/shop-v2',
  home: '/Users/bob',
  line: 140,
  col: 27,
  line2: 9,
  ms: 1203,
  port: 51873,
  sha: 'a9e0c47d1b2f',
  pid: 77,
  tmp: 'tmp-77-pQ9x2L0m55',
  uuid: '9b1d2e3f-1111-4a2b-9c3d-aa00bb11cc22',
  time: '2025-01-02T03:04:05+01:00',
  addr: '0xc000123abc',
};

/** One failure as a tool prints it, written over the volatile parts. */
export interface CorpusCase {
  name: string;
  family: string;
  text: (v: Volatile) => string;
  /** The command that ran it (its family is part of the signature). */
  command?: string;
  tool?: string;
}

/** Two failures that look alike and need different fixes. */
export interface DifferentPair {
  name: string;
  a: CorpusCase;
  b: CorpusCase;
}
