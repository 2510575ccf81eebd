/**
 * How `CAIRN_*` variables turn into setting values. Strict: a number is
 * plain decimal, a boolean one of a few words, JSON must parse. A value
 * that does not fit throws EnvValueError with the reason; the resolver
 * turns it into INVALID_CONFIG naming the variable.
 */
export class EnvValueError extends Error {}

const BOOLEAN_WORDS: Record<string, boolean> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
};

export const parseBoolean = (raw: string): unknown => {
  const value = BOOLEAN_WORDS[raw.trim().toLowerCase()];
  if (value === undefined) throw new EnvValueError('expected true/false, yes/no, on/off or 1/0');
  return value;
};

/** Plain decimal only: `12`, `-1`, `0.5`. Not `0x10`, `1e3`, `12abc` or an empty string. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;

export const parseNumber = (raw: string): unknown => {
  const value = raw.trim();
  if (!DECIMAL.test(value)) throw new EnvValueError('expected a plain decimal number such as 12');
  return Number(value);
};

export const parseString = (raw: string): unknown => raw;

export const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new EnvValueError(`not valid JSON (${(error as Error).message})`);
  }
};

/**
 * `CAIRN_*` variables that are not settings but are read elsewhere (or by
 * tests and scripts). Any other `CAIRN_*` variable is reported as unknown.
 * Packages that add one append it here.
 */
export const KNOWN_CAIRN_ENV_VARIABLES: string[] = [
  'CAIRN_AGENT_ID',
  'CAIRN_HOOK_STDIN_TIMEOUT_MS',
  'CAIRN_HOOK_SERVER',
  'CAIRN_HOOK_SERVER_IDLE_MS',
  'CAIRN_HOOK_SERVER_READ_MS',
  'CAIRN_HOOK_SERVER_EVENT_MS',
  'CAIRN_HOOK_CLIENT_TIMEOUT_MS',
  'CAIRN_SQLITE_BINDING',
  'CAIRN_SQLITE_DRIVER',
  'CAIRN_CAPTURE_FILE',
];

/** Variables with this prefix belong to tests and are never reported. */
export const TEST_ENV_PREFIX = 'CAIRN_TEST_';
