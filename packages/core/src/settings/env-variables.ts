import { SETTING_DEFINITIONS } from './definitions';
import { KNOWN_CAIRN_ENV_VARIABLES, TEST_ENV_PREFIX } from './env-values';

const settingVariables = new Set(SETTING_DEFINITIONS.map((d) => d.env));

/** `CAIRN_*` variables that are neither settings nor known runtime variables, sorted. */
export function unknownEnvVariables(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(KNOWN_CAIRN_ENV_VARIABLES);
  return Object.keys(env)
    .filter(
      (name) =>
        name.startsWith('CAIRN_') &&
        !name.startsWith(TEST_ENV_PREFIX) &&
        !settingVariables.has(name) &&
        !known.has(name),
    )
    .sort();
}
