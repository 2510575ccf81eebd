import { type CairnHooks, type CairnPluginInput, createCairnHooks } from './plugin-hooks';

/**
 * The OpenCode plugin (`"plugin": ["file:///…/dist/plugin.js"]` in
 * opencode.json). OpenCode calls every function this module exports, so it
 * exports this one alone.
 */
export const CairnPlugin = async (input: CairnPluginInput): Promise<CairnHooks> =>
  createCairnHooks(input);
