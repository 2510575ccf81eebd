import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmokeContext {
  /** The installed `cairn` (`<prefix>/node_modules/.bin/cairn`). */
  bin: string;
  /** An empty project folder. */
  project: string;
  env: NodeJS.ProcessEnv;
}

export const HARNESSES = ['claude-code', 'codex', 'opencode', 'openclaw'] as const;

/** Stops a child that hangs, so CI fails with a message instead of at its own time limit. */
const LIMIT_MS = 120_000;

async function cairn(ctx: SmokeContext, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(ctx.bin, [...args, '--root', ctx.project], {
      env: ctx.env,
      cwd: ctx.project,
      timeout: LIMIT_MS,
      maxBuffer: 16 * 2 ** 20,
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`cairn ${args.join(' ')} failed: ${String(error)}\n${stdout}${stderr}`);
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** init, add, then search finds the unit that add created. */
export async function smokeMemory(ctx: SmokeContext): Promise<void> {
  await cairn(ctx, ['init']);
  const text = 'We decided to use pnpm workspaces for the monorepo.';
  const added = JSON.parse(await cairn(ctx, ['add', '--json', text])) as { memoryId?: string };
  check(typeof added.memoryId === 'string', `cairn add gave no memoryId: ${JSON.stringify(added)}`);
  const found = JSON.parse(await cairn(ctx, ['search', '--json', 'pnpm monorepo'])) as {
    results?: { memoryId?: string }[];
  };
  const ids = (found.results ?? []).map((hit) => hit.memoryId);
  check(ids.includes(added.memoryId), `cairn search did not find ${added.memoryId}: ${ids}`);
}

/** `cairn install <harness> --dry-run` exits 0 for every harness (or those named). */
export async function smokeInstall(
  ctx: SmokeContext,
  harnesses: readonly string[] = HARNESSES,
): Promise<void> {
  for (const harness of harnesses) await cairn(ctx, ['install', harness, '--dry-run']);
}

interface RpcMessage {
  id?: number;
  result?: { tools?: { name: string }[]; serverInfo?: { name: string } };
  error?: unknown;
}

/** `cairn mcp` on stdio: initialize, then tools/list names the memory tools. */
export async function smokeMcp(ctx: SmokeContext): Promise<string[]> {
  const child = spawn(ctx.bin, ['mcp', '--root', ctx.project], {
    env: ctx.env,
    cwd: ctx.project,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const guard = setTimeout(() => child.kill(), LIMIT_MS);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const responses = new Map<number, RpcMessage>();
  const lines = createInterface({ input: child.stdout });
  const answered = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      const message = JSON.parse(line) as RpcMessage;
      if (typeof message.id === 'number') responses.set(message.id, message);
      if (responses.has(2)) resolve();
    });
    lines.on('close', resolve);
  });
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'packed-install', version: '0' },
    },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await answered;
  child.stdin.end();
  const code = await exited;
  clearTimeout(guard);
  check(code === 0, `cairn mcp exited ${code}: ${stderr}`);
  check(responses.get(1)?.result?.serverInfo?.name === 'cairn', 'cairn mcp: no initialize result');
  const tools = (responses.get(2)?.result?.tools ?? []).map((tool) => tool.name);
  for (const name of ['memory_add', 'memory_search']) {
    check(tools.includes(name), `cairn mcp tools/list lacks ${name}: ${tools.join(', ')}`);
  }
  return tools;
}

/**
 * `cairn ui --no-open`: the installed dashboard (`@cairn/server` with its
 * built UI) starts, its one-time URL signs in, the page and the API answer.
 * Returns what the dashboard printed.
 */
export async function smokeUi(ctx: SmokeContext): Promise<string> {
  const child = spawn(ctx.bin, ['ui', '--no-open', '--port', '0', '--root', ctx.project], {
    env: ctx.env,
    cwd: ctx.project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const guard = setTimeout(() => child.kill(), LIMIT_MS);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let printed = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const url = await new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (chunk) => {
      printed += String(chunk);
      const match = /(http:\/\/127\.0\.0\.1:\d+\/auth\/\S+)\n$/.exec(printed);
      if (match) resolve(match[1]);
    });
    child.on('close', () => resolve(undefined));
  });
  try {
    check(url !== undefined, `cairn ui printed no sign-in URL: ${printed}${stderr}`);
    const signIn = await fetch(url!, { redirect: 'manual' });
    const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
    check(
      signIn.status === 303 && cookie !== '',
      `cairn ui: the sign-in URL answered ${signIn.status}`,
    );
    const page = await fetch(new URL('/', url), { headers: { cookie } });
    const script = await fetch(new URL('/assets/app.js', url));
    check(
      page.ok && script.ok,
      `cairn ui: the page answered ${page.status}, its script ${script.status}`,
    );
    const units = await fetch(new URL('/api/units', url), { headers: { cookie } });
    const body = (await units.json()) as { units?: unknown[] };
    check(units.ok && Array.isArray(body.units), `cairn ui: /api/units answered ${units.status}`);
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    clearTimeout(guard);
    check(code === 0, `cairn ui exited ${code}: ${stderr}`);
  }
  return printed;
}
