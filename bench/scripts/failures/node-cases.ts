import { type FailureCase, pad, pick, port, variants } from './failure-case';

const ENTRY = ['app', 'main', 'server', 'index'];
const esm = (v: number) => `${pick(['', 'src/', 'lib/', 'bin/'], v)}${pick(ENTRY, v)}.mjs`;
const cjs = (v: number) => `${pick(['', 'src/', 'lib/', 'scripts/'], v)}${pick(ENTRY, v)}.cjs`;

/** A script that fails at a line that moves with the setting. */
function nodeRun(v: number, body: string, file = esm(v)) {
  return { command: `node ${file}`, files: { [file]: `${pad(v)}${body}\n` } };
}

function missingPackage(name: string, pkg: string, n: number): FailureCase {
  return {
    ecosystem: 'node',
    name,
    fix: `install-missing-module:${pkg}`,
    tool: 'node',
    runs: variants(n, (v) => nodeRun(v, `import x from '${pkg}';\nconsole.log(x);`)),
  };
}

export const NODE_CASES: FailureCase[] = [
  missingPackage('esm-missing-lodash', 'lodash', 3),
  missingPackage('esm-missing-express', 'express', 3),
  missingPackage('esm-missing-zod', 'zod', 2),
  {
    ecosystem: 'node',
    name: 'cjs-missing-chalk',
    fix: 'install-missing-module:chalk',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, "const c = require('chalk');\nconsole.log(c);", cjs(v))),
  },
  {
    ecosystem: 'node',
    name: 'esm-missing-relative',
    fix: 'fix-import-path:./util.js',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, "import { x } from './util.js';\nconsole.log(x);")),
  },
  {
    ecosystem: 'node',
    name: 'esm-missing-relative-helpers',
    fix: 'fix-import-path:./helpers.js',
    tool: 'node',
    runs: variants(2, (v) => nodeRun(v, "import { h } from './helpers.js';\nconsole.log(h);")),
  },
  {
    ecosystem: 'node',
    name: 'not-a-function',
    fix: 'fix-code:client.connect-not-a-function',
    tool: 'node',
    runs: variants(3, (v) =>
      nodeRun(v, `const client = { ${pick(['a', 'b', 'c'], v)}: 1 };\nclient.connect();`),
    ),
  },
  {
    ecosystem: 'node',
    name: 'undefined-property',
    fix: 'fix-code:read-property-of-undefined-name',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, `const user = undefined;\nconsole.log(user.name);`)),
  },
  {
    ecosystem: 'node',
    name: 'not-defined',
    fix: 'fix-code:define-config',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, 'console.log(config.port);')),
  },
  {
    ecosystem: 'node',
    name: 'address-in-use',
    fix: 'free-port-or-change-port',
    tool: 'node',
    runs: variants(3, (v) =>
      nodeRun(
        v,
        `import { createServer } from 'node:http';\nconst port = ${port(v)};\ncreateServer().listen(port, () => createServer().listen(port));\nsetTimeout(() => process.exit(0), 3000).unref();`,
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'syntax-unexpected-token',
    fix: 'fix-syntax:unbalanced-brace',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, `function f() {\n  return ${v};\n}}\nf();`)),
  },
  {
    ecosystem: 'node',
    name: 'json-parse',
    fix: 'fix-json-config',
    tool: 'node',
    runs: variants(3, (v) => ({
      command: `node ${esm(v)}`,
      files: {
        [esm(v)]:
          `${pad(v)}import { readFileSync } from 'node:fs';\nJSON.parse(readFileSync('${pick(['config', 'settings', 'app'], v)}.json', 'utf8'));\n`,
        [`${pick(['config', 'settings', 'app'], v)}.json`]: `{ "port": ${port(v)}, }\n`,
      },
    })),
  },
  {
    ecosystem: 'node',
    name: 'require-esm',
    fix: 'use-import-for-esm:esm-only',
    tool: 'node',
    runs: variants(3, (v) => ({
      command: `node ${cjs(v)}`,
      files: {
        [cjs(v)]: `${pad(v)}const m = require('esm-only');\nconsole.log(m);\n`,
        'node_modules/esm-only/package.json':
          '{ "name": "esm-only", "type": "module", "main": "index.js", "exports": { "import": "./index.js" } }',
        'node_modules/esm-only/index.js': 'export default 1;\n',
      },
    })),
  },
  {
    ecosystem: 'node',
    name: 'missing-file',
    fix: 'create-missing-file:config.json',
    tool: 'node',
    runs: variants(3, (v) =>
      nodeRun(v, "import { readFileSync } from 'node:fs';\nreadFileSync('config.json', 'utf8');"),
    ),
  },
  {
    ecosystem: 'node',
    name: 'missing-file-absolute',
    fix: 'create-missing-file:data.csv',
    tool: 'node',
    runs: variants(2, (v) =>
      nodeRun(
        v,
        "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nreadFileSync(join(process.cwd(), 'data', 'data.csv'), 'utf8');",
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'missing-file-absolute-users',
    fix: 'create-missing-file:users.csv',
    tool: 'node',
    runs: variants(2, (v) =>
      nodeRun(
        v,
        "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nreadFileSync(join(process.cwd(), 'data', 'users.csv'), 'utf8');",
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'env-missing-database-url',
    fix: 'set-env:DATABASE_URL',
    tool: 'node',
    runs: variants(3, (v) =>
      nodeRun(
        v,
        "if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');\nconsole.log('ok');",
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'env-missing-api-key',
    fix: 'set-env:API_KEY',
    tool: 'node',
    runs: variants(2, (v) =>
      nodeRun(
        v,
        "if (!process.env.API_KEY) throw new Error('API_KEY is not set');\nconsole.log('ok');",
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'bad-option',
    fix: 'remove-unknown-node-flag',
    tool: 'node',
    runs: variants(2, (v) => ({
      command: `node --${pick(['experimental-magic', 'experimental-magic'], v)} ${esm(v)}`,
      files: { [esm(v)]: 'console.log(1);\n' },
    })),
  },
  {
    ecosystem: 'node',
    name: 'assert-strict-equal',
    fix: 'fix-failing-assertion:total',
    tool: 'node',
    runs: variants(3, (v) =>
      nodeRun(
        v,
        `import assert from 'node:assert/strict';\nconst total = ${v + 3};\nassert.equal(total, ${v + 4}, 'total is wrong');`,
      ),
    ),
  },
  {
    ecosystem: 'node',
    name: 'unhandled-rejection-fetch',
    fix: 'start-local-api-server',
    tool: 'node',
    runs: variants(3, (v) => nodeRun(v, `await fetch('http://127.0.0.1:${port(v) + 1}/health');`)),
  },
];
