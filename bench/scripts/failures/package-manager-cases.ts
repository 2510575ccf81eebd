import { type FailureCase, pick, variants } from './failure-case';

const NAMES = ['shop', 'api-server', 'web-ui', 'tools'];
const manifest = (v: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: pick(NAMES, v), version: `1.${v}.0`, private: true, ...extra }, null, 2);

function npmCase(
  name: string,
  fix: string,
  command: (v: number) => string,
  files: (v: number) => Record<string, string>,
  n = 3,
  ecosystem = 'npm',
): FailureCase {
  const tool = ecosystem === 'pnpm' ? 'pnpm' : 'npm';
  return {
    ecosystem,
    name,
    fix,
    tool,
    runs: variants(n, (v) => ({ command: command(v), files: files(v) })),
  };
}

const failingScript = (v: number, message: string) => ({
  'package.json': manifest(v, {
    scripts: { build: `node ${pick(['build', 'scripts/build'], v)}.mjs` },
  }),
  [`${pick(['build', 'scripts/build'], v)}.mjs`]: `throw new Error('${message}');\n`,
});

export const NPM_CASES: FailureCase[] = [
  npmCase(
    'missing-script-build',
    'add-script:build',
    () => 'npm run build',
    (v) => ({ 'package.json': manifest(v) }),
  ),
  npmCase(
    'missing-script-lint',
    'add-script:lint',
    () => 'npm run lint',
    (v) => ({ 'package.json': manifest(v) }),
    2,
  ),
  npmCase(
    'no-package-json',
    'run-in-package-root',
    (v) => pick(['npm run build', 'npm run build -- --prod', 'npm run build -- --watch'], v),
    () => ({}),
  ),
  npmCase(
    'offline-not-cached',
    'network-or-cache:left-pad',
    (v) =>
      pick(
        [
          'npm install left-pad --offline',
          'npm install --save left-pad --offline',
          'npm install --offline left-pad',
        ],
        v,
      ),
    (v) => ({ 'package.json': manifest(v) }),
  ),
  npmCase(
    'broken-package-json',
    'fix-package-json-syntax',
    (v) =>
      pick(
        [
          'npm install --offline',
          'npm install --offline --no-audit',
          'npm install --offline --no-fund',
        ],
        v,
      ),
    (v) => ({ 'package.json': `{ "name": "${pick(NAMES, v)}", "version": "1.0.0", }` }),
  ),
  npmCase(
    'ci-without-lockfile',
    'create-lockfile:npm',
    () => 'npm ci',
    (v) => ({ 'package.json': manifest(v, { dependencies: { 'left-pad': '^1.3.0' } }) }),
  ),
  npmCase(
    'unknown-command',
    'fix-npm-command:deploy',
    () => 'npm deploy',
    (v) => ({ 'package.json': manifest(v) }),
    2,
  ),
  npmCase(
    'default-test-script',
    'write-tests-or-test-script',
    () => 'npm test',
    (v) => ({
      'package.json': manifest(v, {
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
      }),
    }),
  ),
  npmCase(
    'script-throws',
    'fix-build-script:assets-missing',
    () => 'npm run build',
    (v) => failingScript(v, 'assets folder is missing'),
  ),
  npmCase(
    'script-command-not-found',
    'install-dev-tool:vite',
    () => 'npm run build',
    (v) => ({
      'package.json': manifest(v, {
        scripts: { build: `vite build --mode ${pick(['production', 'staging'], v)}` },
      }),
    }),
  ),
];

export const PNPM_CASES: FailureCase[] = [
  npmCase(
    'no-script-build',
    'add-script:build',
    () => 'pnpm run build',
    (v) => ({ 'package.json': manifest(v) }),
    3,
    'pnpm',
  ),
  npmCase(
    'no-script-lint',
    'add-script:lint',
    () => 'pnpm lint',
    (v) => ({ 'package.json': manifest(v) }),
    2,
    'pnpm',
  ),
  npmCase(
    'no-manifest',
    'run-in-package-root',
    (v) => pick(['pnpm install --offline', 'pnpm install --offline --frozen-lockfile'], v),
    () => ({}),
    3,
    'pnpm',
  ),
  npmCase(
    'offline-no-meta',
    'network-or-cache:kleur',
    (v) =>
      pick(
        ['pnpm add kleur --offline', 'pnpm add --offline kleur', 'pnpm add -D kleur --offline'],
        v,
      ),
    (v) => ({ 'package.json': manifest(v) }),
    3,
    'pnpm',
  ),
  npmCase(
    'frozen-lockfile-outdated',
    'update-lockfile:pnpm',
    () => 'pnpm install --frozen-lockfile --offline',
    (v) => ({
      'package.json': manifest(v, { dependencies: { 'left-pad': '^1.3.0' } }),
      'pnpm-lock.yaml':
        "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n",
    }),
    3,
    'pnpm',
  ),
  npmCase(
    'exec-not-found',
    'install-dev-tool:vitest',
    () => 'pnpm exec vitest run',
    (v) => ({ 'package.json': manifest(v) }),
    3,
    'pnpm',
  ),
  npmCase(
    'exec-not-found-eslint',
    'install-dev-tool:eslint',
    () => 'pnpm exec eslint .',
    (v) => ({ 'package.json': manifest(v) }),
    2,
    'pnpm',
  ),
  npmCase(
    'broken-manifest',
    'fix-package-json-syntax',
    () => 'pnpm install --offline',
    (v) => ({ 'package.json': `{ "name": "${pick(NAMES, v)}", "version": "1.0.0", }` }),
    3,
    'pnpm',
  ),
  npmCase(
    'unsupported-engine',
    'use-supported-node',
    () => 'pnpm install --offline --engine-strict',
    (v) => ({ 'package.json': manifest(v, { engines: { node: `>=${90 + v}` } }) }),
    3,
    'pnpm',
  ),
  npmCase(
    'script-throws',
    'fix-build-script:assets-missing',
    () => 'pnpm run build',
    (v) => failingScript(v, 'assets folder is missing'),
    3,
    'pnpm',
  ),
];

export const PACKAGE_MANAGER_CASES: FailureCase[] = [...NPM_CASES, ...PNPM_CASES];
