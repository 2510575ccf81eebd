import type { CairnHooks, CairnPluginInput } from './plugin-hooks';
import { cairnPluginFor } from './plugin-instances';

/**
 * The OpenCode plugin: imported by the committed loader
 * `.opencode/plugin/cairn.js` of a project install (see plugin-stub.ts), or
 * named as `"plugin": ["file:///…/dist/plugin.js"]` in the user's
 * opencode.json. OpenCode calls every function this module exports, so it
 * exports this one alone. Loaded twice for one project (both scopes), the
 * second copy stands down (plugin-instances.ts).
 */
export const CairnPlugin = async (input: CairnPluginInput): Promise<CairnHooks> =>
  cairnPluginFor(input);
