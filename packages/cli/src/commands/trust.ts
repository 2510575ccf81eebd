import {
  projectConfigPath,
  resolveSettings,
  revokeProjectConfig,
  trustProjectConfig,
} from '@cairn/core';
import type { CommandSpec } from '../command';

/**
 * `cairn trust`: records the sha256 of the project's `.cairn/config.json`
 * in the user's trust store, so the settings in it that run programs or
 * send data off the machine are honoured. Any change to the file revokes
 * it. `--revoke` removes the record.
 */
export const trustCommand: CommandSpec = {
  name: 'trust',
  summary:
    "Trust this project's .cairn/config.json as it is now (settings that run programs or reach the network); --revoke undoes it",
  usage: 'cairn trust [--revoke] [--root <dir>] [--json]',
  options: { revoke: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  listsWarnings: true,
  async run({ io, root, values }) {
    const configPath = projectConfigPath(root);
    const location = { env: io.env };
    if (values.revoke) {
      const change = await revokeProjectConfig(configPath, location);
      return {
        json: { ok: true, revoked: change.changed, config: configPath, store: change.storePath },
        text: change.changed
          ? `revoked trust in ${configPath} (recorded in ${change.storePath})`
          : `${configPath} was not trusted; nothing to revoke`,
      };
    }
    // What the file sets that is ignored today: what trusting it enables.
    const before = resolveSettings({ projectRoot: root, env: io.env });
    const change = await trustProjectConfig(configPath, location);
    const enabled = before.trust.ignored;
    const lines = [
      `trusted ${configPath} (sha256 ${change.sha256}) in ${change.storePath}`,
      change.changed ? undefined : '  (it was already trusted with these bytes)',
      enabled.length
        ? 'settings now honoured from it:'
        : 'it sets nothing that needed trust; any change to the file revokes the trust',
      ...enabled.map((item) => `  + ${item.key} (${item.reason})`),
    ].filter((line): line is string => line !== undefined);
    return {
      json: {
        ok: true,
        config: configPath,
        sha256: change.sha256,
        store: change.storePath,
        alreadyTrusted: !change.changed,
        enabled,
      },
      text: lines.join('\n'),
    };
  },
};
