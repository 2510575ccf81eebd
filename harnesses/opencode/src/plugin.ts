import { type CairnHooks, type CairnPluginInput, createCairnHooks } from './plugin-hooks';

/**
 * The OpenCode plugin: imported by the committed loader
 * `.opencode/plugin/cairn.js` of a project install (see plugin-stub.ts), or
 * named as `"plugin": ["file:///…/dist/plugin.js"]` in the user's
 * opencode.json. OpenCode calls every function this module exports, so it
 * exports this one alone.
 */
export const CairnPlugin = async (input: CairnPluginInput): Promise<CairnHooks> =>
  createCairnHooks(input);
