// An OpenCode plugin that appends every hook input the Cairn plugin reads to
// $CAIRN_CAPTURE_FILE (one JSON line each), in the shape the Cairn plugin
// hands to `deliver`. Used by capture-fixtures.ts.
import { appendFileSync } from 'node:fs';

const SESSION_EVENTS = new Set(['session.created', 'session.idle', 'session.deleted']);

export const CaptureCairnPayloads = async ({ client }) => {
  const record = (hookEvent, payload) =>
    appendFileSync(process.env.CAIRN_CAPTURE_FILE, `${JSON.stringify({ hookEvent, payload })}\n`);
  return {
    event: async ({ event }) => {
      if (SESSION_EVENTS.has(event.type)) record(event.type, event);
      if (event.type === 'session.compacted') {
        const reply = await client.session.messages({ path: { id: event.properties.sessionID } });
        record(event.type, { event, messages: reply.data ?? [] });
      }
    },
    'chat.message': async (input, output) => record('chat.message', { input, output }),
    'tool.execute.after': async (input, output) => record('tool.execute.after', { input, output }),
    'experimental.session.compacting': async (input, output) =>
      record('experimental.session.compacting', { input, output }),
  };
};
