import { type OpenclawPluginApi, registerCairnPlugin } from './plugin-runtime';

/** OpenClaw's entry (package.json `openclaw.extensions`): a memory-kind plugin with Cairn's hooks. */
export default {
  id: 'cairn',
  name: 'Cairn',
  description: 'Cairn memory for OpenClaw: session lineage, thread heads and recall.',
  register(api: OpenclawPluginApi): void {
    registerCairnPlugin(api);
  },
};
