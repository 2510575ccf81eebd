/**
 * File paths and shell commands mentioned in a transcript.
 *
 * Paths: a token (split at whitespace, quotes, brackets, commas) that looks
 * like `dir/name.ext`, `./a/b.md`, `../x.ts`, `~/x.sh` or `/etc/x.conf`;
 * a bare `name.ext` only with a known source/config extension. A trailing
 * `:line:col`, `#L10` or sentence punctuation is dropped. URLs, domain-like
 * first segments (`example.com/a.html`), method calls (`res.json()`) and
 * framework names (`Node.js`) are not paths.
 *
 * Commands: a line starting with `$ `; a line of a shell code block
 * (sh, bash, shell, zsh, console) starting with a known tool; an inline
 * backticked span starting with a known tool and at least one argument;
 * and a `tool` entry as `<toolName>: <input>` (the input's `command`,
 * `file_path`, `path`, `pattern`, `query` or `url` field when it is JSON).
 */

const KNOWN_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx yaml yml toml ini conf cfg env lock ' +
    'txt csv sql py rb rs go mod sum java kt swift c h cc cpp hpp cs php sh bash zsh fish ps1 ' +
    'html css scss vue svelte astro xml gradle proto graphql tf lua ex exs hs scala dart zig nix'
  ).split(' '),
);

const KNOWN_TOOLS = new Set(
  (
    'pnpm npm npx yarn bun bunx node deno tsx tsc vitest jest biome eslint prettier turbo ' +
    'git gh cargo rustc rustup go python python3 pip pip3 uv poetry pytest make cmake ' +
    'docker docker-compose podman kubectl helm terraform cairn curl wget ssh rsync ' +
    'sqlite3 psql brew apt apt-get claude codex opencode openclaw ollama'
  ).split(' '),
);

const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'terminal']);
const PATH_SHAPE =
  /^(?:~|\.{1,2})?\/?(?:[\w@+-][\w@.+-]*\/)*[\w@+-][\w@.+-]*\.([A-Za-z][A-Za-z0-9]{0,7})$/;
/** Characters that end a path token (ASCII only; other characters never do). */
const DELIMITERS = new Uint8Array(128);
for (const char of ' \t\n\r\f\v`\'"<>()[]{},;|') DELIMITERS[char.charCodeAt(0)] = 1;
const OPEN_PAREN = 40;
const DOMAIN_SEGMENT = /^[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|ai|app|co|sh)\//i;
const FRAMEWORK_NAMES = /^(?:node|next|nuxt|vue|react|express|three|d3|chart|ember|angular)\.js$/i;
const MAX_TOKEN_CHARS = 300;

function asPath(token: string): string | undefined {
  const path = token
    .replace(/[.:!?]+$/, '')
    .replace(/#L\d+.*$/, '')
    .replace(/(?::\d+){1,2}$/, '');
  const match = PATH_SHAPE.exec(path);
  if (!match || path.includes('://') || DOMAIN_SEGMENT.test(path)) return undefined;
  const hasDir = path.includes('/');
  if (!hasDir && !KNOWN_EXTENSIONS.has(match[1]!.toLowerCase())) return undefined;
  if (!hasDir && FRAMEWORK_NAMES.test(path)) return undefined;
  return path;
}

function isDelimiter(code: number): boolean {
  return code < 128 && DELIMITERS[code] === 1;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * Appends the file paths found in `text` to `out`. Scans for "." before a
 * letter and widens to the surrounding token by hand: this runs on every
 * line of every entry, and a regex with lookbehind was the hot spot.
 */
export function collectPaths(text: string, out: string[]): void {
  let from = 0;
  for (let dot = text.indexOf('.'); dot !== -1; dot = text.indexOf('.', from)) {
    from = dot + 1;
    if (!isLetter(text.charCodeAt(dot + 1))) continue;
    let start = dot;
    while (start > 0 && !isDelimiter(text.charCodeAt(start - 1))) start -= 1;
    let end = dot + 1;
    while (end < text.length && !isDelimiter(text.charCodeAt(end))) end += 1;
    from = end;
    if (text.charCodeAt(end) === OPEN_PAREN || end - start > MAX_TOKEN_CHARS) continue;
    const path = asPath(text.slice(start, end));
    if (path) out.push(path);
  }
}

/** The first word of a command line, after `sudo` and `VAR=value` prefixes. */
function commandTool(command: string): string | undefined {
  const words = command.replace(/^(?:sudo\s+)?(?:\w+=\S*\s+)*/, '').split(/\s+/);
  return words[0];
}

function startsWithKnownTool(command: string, needsArgument: boolean): boolean {
  const tool = commandTool(command);
  if (!tool || !KNOWN_TOOLS.has(tool)) return false;
  return !needsArgument || command.trim().split(/\s+/).length > 1;
}

/** Commands in a line of prose: `$ ...` lines and backticked tool invocations. */
export function collectCommands(line: string, out: string[]): void {
  const prompt = line.startsWith('$') ? /^\$\s+(.+)$/.exec(line) : null;
  if (prompt) {
    out.push(prompt[1]!);
    return;
  }
  if (!line.includes('`')) return;
  for (const match of line.matchAll(/`([^`]{2,300})`/g)) {
    const span = match[1]!.trim();
    if (startsWithKnownTool(span, true)) out.push(span);
  }
}

/** Commands in a line of a fenced code block whose language is `fence`. */
export function collectFencedCommand(line: string, fence: string, out: string[]): void {
  const prompt = /^\s*\$\s+(.+)$/.exec(line);
  if (prompt) out.push(prompt[1]!);
  else if (SHELL_FENCES.has(fence) && startsWithKnownTool(line, false)) out.push(line.trim());
}

const TOOL_INPUT_FIELDS = [
  'command',
  'cmd',
  'file_path',
  'filePath',
  'path',
  'pattern',
  'query',
  'url',
];
const TOOL_INPUT_CHARS = 120;

function toolInput(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        const field = TOOL_INPUT_FIELDS.find((key) => typeof record[key] === 'string');
        if (field) return record[field] as string;
      }
    } catch {
      // Not JSON: use the text as it is.
    }
  }
  return trimmed;
}

/** A `tool` entry as one command line: `<toolName>: <bounded input>`. */
export function toolCommand(toolName: string | undefined, text: string): string {
  const input = toolInput(text.slice(0, 20 * TOOL_INPUT_CHARS))
    .slice(0, 2 * TOOL_INPUT_CHARS)
    .replace(/\s+/g, ' ')
    .trim();
  const bounded = input.length > TOOL_INPUT_CHARS ? `${input.slice(0, TOOL_INPUT_CHARS)}…` : input;
  const name = toolName?.trim() || 'tool';
  return bounded ? `${name}: ${bounded}` : name;
}
