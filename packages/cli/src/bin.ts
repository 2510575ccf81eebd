#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ can cache compiled code between runs (in the OS temp dir), which
// saves most of the start-up of this short-lived process; Node 20 lacks it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main');
