// Builds the documentation site from docs/ with VitePress, checks every
// internal link and anchor of the built pages, and prints the folder it
// wrote as its last line. No fonts or scripts are fetched: the default
// theme ships its own, and the search is local.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vitepress';
import { checkLinks } from './check-links.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const site = resolve(here, '..');
const docs = resolve(site, '..', '..', 'docs');
const stage = join(site, '.stage');
const out = join(site, 'dist');

/** The pages in the order a newcomer reads them; the rest follow by name. */
const ORDER = [
  'CONCEPTS.md',
  'GETTING-STARTED.md',
  'CLI.md',
  'CLI-REFERENCE.md',
  'UNITS.md',
  'HOOKS.md',
  'PACKS.md',
  'SEARCH.md',
  'HISTORY.md',
  'HARNESSES.md',
  'DASHBOARD.md',
  'MCP.md',
  'CONFIG.md',
  'BACKENDS.md',
  'ARCHITECTURE.md',
];

const titleOf = (text, name) => /^# (.+)$/m.exec(text)?.[1].replaceAll('`', '') ?? name;

function pages() {
  const names = readdirSync(docs).filter((name) => name.endsWith('.md'));
  const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return names
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => ({ name, title: titleOf(readFileSync(join(docs, name), 'utf8'), name) }));
}

function stageDocs(list) {
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, '.vitepress'), { recursive: true });
  // The generated-table markers are HTML comments; raw HTML is shown as text (see `markdown.html`).
  for (const { name } of list) {
    const text = readFileSync(join(docs, name), 'utf8').replace(/^<!-- generated[^>]*-->\n/gm, '');
    writeFileSync(join(stage, name), text);
  }
  if (existsSync(join(docs, 'images')))
    cpSync(join(docs, 'images'), join(stage, 'images'), { recursive: true });
  const index = [
    '# Cairn',
    '',
    'Durable, reviewable memory for coding agents (Claude Code, Codex, OpenCode, OpenClaw):',
    'markdown in your repository is the source of truth, every index is derived.',
    '',
    'Start with [Concepts](./CONCEPTS.md) (units, the three tiers, packs, task history, maintenance,',
    'teams) and [Getting started](./GETTING-STARTED.md); what each agent supports, and the tests',
    'that prove it, is on [Harness fidelity and its evidence](./FIDELITY.md). Every page:',
    '',
    ...list.map(({ name, title }) => `- [${title}](./${name})`),
    '',
  ].join('\n');
  writeFileSync(join(stage, 'index.md'), index);
}

function writeConfig(list) {
  const from = JSON.stringify(join(here, 'site-config.mjs'));
  const module = `import { siteConfig } from ${from};\nexport default siteConfig(${JSON.stringify(list)}, ${JSON.stringify(out)});\n`;
  writeFileSync(join(stage, '.vitepress', 'config.mjs'), module);
}

/**
 * The pages generated from the code's declarations (tools/repo): the
 * fidelity matrix with its evidence, each cell stamped with what this
 * build's test reports say (CI builds the site after `pnpm test`).
 */
function stageGeneratedPages(list) {
  execFileSync('pnpm', ['--filter', '@cairn/repo-tools', '-s', 'site-pages', stage], {
    stdio: 'inherit',
  });
  const harnesses = list.findIndex(({ name }) => name === 'HARNESSES.md');
  list.splice(harnesses + 1, 0, {
    name: 'FIDELITY.md',
    title: 'Harness fidelity and its evidence',
  });
}

/** The repository's files on GitHub (from the CLI package's `repository`), for links that leave docs/. */
function repositoryFiles() {
  const manifest = JSON.parse(
    readFileSync(resolve(site, '..', '..', 'packages', 'cli', 'package.json'), 'utf8'),
  );
  const url = String(manifest.repository?.url ?? '')
    .replace(/^git\+/, '')
    .replace(/\.git$/, '');
  return `${url}/blob/main/`;
}

/**
 * A page's link to a file outside docs/ (`../harnesses/…/x.e2e.test.ts`,
 * right on GitHub and in a checkout) leads to that file on GitHub: the
 * site holds only docs/.
 */
function linkOutOfDocs(list) {
  const base = repositoryFiles();
  for (const { name } of list) {
    const path = join(stage, name);
    const text = readFileSync(path, 'utf8');
    const linked = text.replaceAll('](../', `](${base}`);
    if (linked !== text) writeFileSync(path, linked);
  }
}

const list = pages();
stageDocs(list);
stageGeneratedPages(list);
linkOutOfDocs(list);
writeConfig(list);
await build(stage);
const problems = checkLinks(out);
if (problems.length) {
  console.error(`${problems.length} broken link(s) in the built site:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`${list.length + 1} pages, every internal link and anchor resolves`);
console.log(out);
