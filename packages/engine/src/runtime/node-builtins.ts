import type * as NodeChildProcess from 'node:child_process';

/**
 * `node:child_process`, loaded on first use: importing it at the top of a
 * module loads `net`, `stream` and a dozen more internal modules (about
 * 5 ms of every hook process), while only a session end (git) or a
 * configured `bd` ever starts a process.
 */
export function childProcess(): typeof NodeChildProcess {
  return process.getBuiltinModule('node:child_process');
}
