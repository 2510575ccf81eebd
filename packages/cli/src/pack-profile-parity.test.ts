import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHarnessFixtures, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/**
 * `cairn pack --profile <name>` prints exactly what that profile's hook
 * injects for the same state (docs/PACKS.md "Profiles"): for Claude Code's
 * and Codex's recorded payloads, driven through `cairn hook <harness>
 * <event>`, the preview taken just before each event equals the
 * `additionalContext` the hook answers, byte for byte.
 */

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject('cairn-pack-parity-');
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const fixtures = (harness: string) =>
  fileURLToPath(new URL(`../../../harnesses/${harness}/fixtures/session`, import.meta.url));

const README = `# Shop

The shop serves the storefront.

## Deploy

The deploy key lives in the vault under \`ops/deploy-key\`; deploys go through kestrel.

\`\`\`sh
vault read ops/deploy-key
kestrel deploy --prod
\`\`\`

## Testing

Run \`pnpm test\` before pushing.
`;

/** Units, a README and one earlier session, so heads, units and documents all answer. */
async function seed(agentId: string) {
  await writeFile(join(project.root, 'README.md'), README);
  expect(cli.run(['init']).code).toBe(0);
  for (const text of [
    'The deploy key is kept in the vault at ops/deploy-key.',
    'Deploys go through the kestrel pipeline, never by hand.',
    'LaunchDarkly flags are owned by the platform team.',
  ]) {
    expect(cli.run(['add', text]).code).toBe(0);
  }
  const ids = { agentId, sessionKey: 'earlier', cwd: project.root };
  const lifecycle = (event: string, input: object) =>
    expect(cli.run(['lifecycle', event], JSON.stringify({ ...ids, ...input })).code).toBe(0);
  lifecycle('session-start', {});
  lifecycle('user-prompt-submit', {
    prompt: 'We decided to rotate the deploy key monthly. Next: script the rotation.',
  });
  lifecycle('session-end', {});
}

interface Fixture {
  hookEvent: string;
  payload: Record<string, unknown>;
}

/** The recorded payload of an event, pointed at this project and session. */
async function payload(harness: string, hookEvent: string, sessionId: string) {
  const all = (await loadHarnessFixtures(fixtures(harness))) as Fixture[];
  const found = all.find((f) => f.hookEvent === hookEvent)!;
  return { ...found.payload, session_id: sessionId, cwd: project.root };
}

function hookContext(stdout: string): string {
  if (!stdout.trim()) return '';
  const reply = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } };
  return reply.hookSpecificOutput?.additionalContext ?? '';
}

describe.each([
  ['claude-code', 'claude-code', 'SessionStart', 'UserPromptSubmit'],
  ['codex', 'codex', 'SessionStart', 'UserPromptSubmit'],
])('cairn pack --profile equals the %s hook', (harness, agentId, startEvent, promptEvent) => {
  it('at session start and at a prompt, byte for byte', async () => {
    await seed(agentId);
    const session = `${harness}-parity`;
    const start = await payload(harness, startEvent, session);
    const preview = (profile: string, ...query: string[]) =>
      cli.run(['pack', '--profile', profile, '--agent', agentId, '--session', session, ...query]);

    const startPreview = preview('session-start');
    expect(startPreview.code, startPreview.stderr).toBe(0);
    const started = cli.run(['hook', harness, startEvent], JSON.stringify(start));
    expect(started.code, started.stderr).toBe(0);
    expect(hookContext(started.stdout)).toBe(startPreview.stdout);
    expect(startPreview.stdout).toContain('<!-- cairn:pack:start -->');

    const prompt = await payload(harness, promptEvent, session);
    // The recorded prompt, about the deploy key, as the user asked it.
    const words = 'where does the deploy key live, and how do deploys go?';
    const asked = { ...prompt, prompt: words };
    const promptPreview = preview('prompt-submit', words);
    expect(promptPreview.code, promptPreview.stderr).toBe(0);
    const submitted = cli.run(['hook', harness, promptEvent], JSON.stringify(asked));
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(hookContext(submitted.stdout)).toBe(promptPreview.stdout);
    // What session start showed is not shown again; between them, the answer came (the
    // README's `## Deploy`, which the thread's status names, already at session start).
    const both = `${startPreview.stdout}${promptPreview.stdout}`;
    expect(both).toContain('ops/deploy-key');
    expect(both).toContain('kestrel');
    expect(promptPreview.stdout).toContain('<!-- cairn:pack:start -->');
    // The stored receipt is that pack: its id is the one the text names.
    const last = JSON.parse(cli.run(['pack', '--last', '--json']).stdout) as {
      receipt: { receiptId: string; profile: string };
    };
    expect(last.receipt.profile).toBe('prompt-submit');
    expect(promptPreview.stdout).toContain(`Receipt ${last.receipt.receiptId}:`);
  });
});
