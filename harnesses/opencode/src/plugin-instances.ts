import { formatError } from '@cairn/core';
import {
  type CairnHooks,
  type CairnPluginInput,
  cairnRootFor,
  createCairnHooks,
} from './plugin-hooks';

/**
 * One Cairn plugin per project in an OpenCode process. OpenCode loads a
 * plugin once per place it is named: installed at the project scope (the
 * committed `.opencode/plugin/cairn.js`) and at the user scope
 * (`"plugin"` in ~/.config/opencode/opencode.json), it loads Cairn twice,
 * and both copies would inject the head and store each prompt. The first
 * copy to start for a project serves it; a later one stands down (no
 * hooks, one line in OpenCode's log) until the first is disposed. The
 * claims live on `globalThis`, shared by copies loaded from different
 * files (two installs of Cairn in one process).
 */
const CLAIMS = Symbol.for('@cairn/harness-opencode/project-claims@1');

function claims(): Map<string, symbol> {
  const holder = globalThis as { [CLAIMS]?: Map<string, symbol> };
  holder[CLAIMS] ??= new Map();
  return holder[CLAIMS];
}

export const STAND_DOWN_MESSAGE =
  'cairn: another Cairn plugin already serves this project in OpenCode (Cairn is installed at both the project and the user scope); this copy stands down. Keep one: `cairn uninstall opencode --scope user`, or `--scope project`';

async function log(input: CairnPluginInput, message: string): Promise<void> {
  await input.client.app
    ?.log({ body: { service: 'cairn', level: 'warn', message } })
    .catch(() => undefined);
}

/** The plugin's hooks for `input.directory`, or none when another copy serves its project. */
export async function cairnPluginFor(input: CairnPluginInput): Promise<CairnHooks> {
  const root = cairnRootFor(input.directory);
  if (!root) return {};
  const held = claims();
  if (held.has(root)) {
    await log(input, `${STAND_DOWN_MESSAGE} (${root})`);
    return {};
  }
  const claim = Symbol(root);
  held.set(root, claim);
  let hooks: CairnHooks;
  try {
    hooks = createCairnHooks(input);
  } catch (error) {
    held.delete(root);
    await log(input, `cairn: ${formatError(error)}`);
    return {};
  }
  const dispose = hooks.dispose;
  return {
    ...hooks,
    dispose: async () => {
      try {
        await dispose?.();
      } finally {
        if (held.get(root) === claim) held.delete(root);
      }
    },
  };
}
