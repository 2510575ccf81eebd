#!/usr/bin/env node
import { runCli } from './cli';
import { processIO } from './io';

runCli(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cairn: INTERNAL: ${String(error)}\n`);
    process.exitCode = 70;
  },
);
