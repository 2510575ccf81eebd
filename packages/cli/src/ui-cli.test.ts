import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; cookie?: string; body: string }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          ...(res.headers['set-cookie'] ? { cookie: res.headers['set-cookie'][0] } : {}),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('cairn ui', () => {
  it('prints the one-time URL as the last line of its first output, serves the project, stops on SIGTERM', async () => {
    expect(cli.run(['init']).code).toBe(0);
    expect(cli.run(['add', 'The dashboard shows this unit.']).code).toBe(0);
    const home = join(project.root, 'home');
    const child = spawn(process.execPath, [bin, 'ui', '--no-open', '--port', '0'], {
      cwd: project.root,
      // DISPLAY set: --no-open must be what keeps the browser closed.
      env: {
        PATH: process.env.PATH,
        HOME: home,
        DISPLAY: ':0',
        XDG_CACHE_HOME: join(tmpdir(), 'cairn-ui-test-cache'),
      },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const firstOutput = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.endsWith('\n') && /\/auth\/\S+\n$/.test(text)) resolve(text);
      });
      child.on('exit', () => reject(new Error(`cairn ui exited: ${text}`)));
    });
    const lines = firstOutput.trimEnd().split('\n');
    const url = lines[lines.length - 1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/[A-Za-z0-9_-]{43}$/);
    const signedIn = await get(url);
    expect(signedIn.status).toBe(303);
    expect(signedIn.cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const cookie = signedIn.cookie!.split(';')[0]!;
    const units = await get(new URL('/api/units', url).href, { cookie });
    expect(units.status).toBe(200);
    expect(units.body).toContain('The dashboard shows this unit.');
    expect((await get(url)).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a port that is not a number, and --json', () => {
    const port = cli.run(['ui', '--port', 'abc', '--no-open']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number');
    expect(cli.run(['ui', '--json']).code).toBe(2);
  });
});
