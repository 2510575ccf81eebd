import { type FailureCase, pad, pick, variants } from './failure-case';

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: true,
    types: [],
  },
});
const FILE = ['src/index.ts', 'src/app.ts', 'lib/util.ts', 'src/server/routes.ts'];
const COMMAND = [
  'tsc --noEmit -p .',
  'tsc -p tsconfig.json',
  'tsc --noEmit',
  'tsc -p . --pretty false',
];

/** A project whose one file fails to compile, at a line that moves with the setting. */
function tsCase(name: string, fix: string, body: (v: number) => string, n = 3): FailureCase {
  return {
    ecosystem: 'typescript',
    name,
    fix,
    tool: 'tsc',
    runs: variants(n, (v) => ({
      command: pick(COMMAND, v),
      files: {
        'tsconfig.json': TSCONFIG,
        'package.json': '{ "type": "module" }',
        [pick(FILE, v)]: `${pad(v)}${body(v)}\nexport {};\n`,
      },
    })),
  };
}

export const TYPESCRIPT_CASES: FailureCase[] = [
  tsCase(
    'ts2322-string-to-number',
    'fix-type:string-to-number',
    (v) => `const count: number = 'x${v}';\nconsole.log(count);`,
  ),
  tsCase(
    'ts2322-number-to-string',
    'fix-type:number-to-string',
    (v) => `const label: string = ${v + 1};\nconsole.log(label);`,
  ),
  tsCase(
    'ts2345-argument',
    'fix-type:string-arg-to-number-param',
    (v) => `function twice(n: number) { return n * 2; }\ntwice('${v}');`,
  ),
  tsCase(
    'ts2304-cannot-find-name-logger',
    'define-or-import:logger',
    () => `logger.info('start');`,
  ),
  tsCase(
    'ts2304-cannot-find-name-config',
    'define-or-import:config',
    () => `console.log(config.port);`,
    2,
  ),
  tsCase(
    'ts2339-missing-property',
    'add-property:User.email',
    (v) =>
      `interface User { id: number; name: string }\nconst u: User = { id: ${v}, name: 'a' };\nconsole.log(u.email);`,
  ),
  tsCase(
    'ts2339-other-property',
    'add-property:User.phone',
    (v) =>
      `interface User { id: number; name: string }\nconst u: User = { id: ${v}, name: 'a' };\nconsole.log(u.phone);`,
    2,
  ),
  tsCase(
    'ts2307-cannot-find-module-zod',
    'install-missing-module:zod',
    () => `import { z } from 'zod';\nconsole.log(z);`,
  ),
  tsCase(
    'ts2307-cannot-find-module-express',
    'install-module-or-types:express',
    () => `import express from 'express';\nconsole.log(express);`,
  ),
  tsCase(
    'ts7006-implicit-any',
    'annotate-parameter',
    (v) => `export function f${v}(value) { return value; }`,
  ),
  tsCase(
    'ts2554-argument-count',
    'fix-call-arity',
    (v) => `function add(a: number, b: number) { return a + b; }\nadd(${v});`,
  ),
  tsCase(
    'ts18048-possibly-undefined',
    'handle-undefined:item',
    (v) =>
      `const items: number[] = [${v}];\nconst item = items.find((x) => x > 0);\nconsole.log(item.toFixed());`,
  ),
  tsCase(
    'ts1005-expected',
    'fix-syntax:missing-paren',
    (v) => `function f(a: number { return a + ${v}; }`,
    2,
  ),
  tsCase(
    'ts2835-relative-extension',
    'add-js-extension-to-import',
    () => `import { x } from './other';\nconsole.log(x);`,
  ),
  {
    ecosystem: 'typescript',
    name: 'ts5023-unknown-option',
    fix: 'fix-tsconfig-option:strictNullz',
    tool: 'tsc',
    runs: variants(2, (v) => ({
      command: pick(COMMAND, v),
      files: {
        'tsconfig.json': '{ "compilerOptions": { "strictNullz": true, "noEmit": true } }',
        [pick(FILE, v)]: 'export const a = 1;\n',
      },
    })),
  },
  {
    ecosystem: 'typescript',
    name: 'ts18003-no-inputs',
    fix: 'fix-tsconfig-include',
    tool: 'tsc',
    runs: variants(2, (v) => ({
      command: pick(COMMAND, v),
      files: {
        'tsconfig.json': '{ "include": ["src/**/*.ts"], "compilerOptions": { "noEmit": true } }',
      },
    })),
  },
];
