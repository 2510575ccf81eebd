import { cpSync, rmSync } from 'node:fs';
import { openCairn } from '@cairn/engine';
const src = process.argv[2]!;
const root = '/tmp/li-prof';
rmSync(root, { recursive: true, force: true });
cpSync(src, root, { recursive: true });
const cairn = openCairn(root, { env: {}, homeDir: '/tmp/li-prof-home', overrides: { timezone: 'UTC' } });
await (cairn as any).ready?.();
const words = 'project vxovxul gaibachait index ludriofark drision feature chogrim offset shaquaream dremeagail delostior deploy team build release jheqyath jhozxo kvakvurk qyavxark'.split(' ');
let seed = 7; const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const times: [number, string, string][] = [];
for (let s = 0; s < 12; s++) {
  const ids = { agentId: 'claude-code', sessionKey: `prof-${s}` };
  await cairn.lifecycle.sessionStart({ ...ids, harness: 'claude-code', threadKey: 'lived-in.main' });
  for (let p = 0; p < 5; p++) {
    const n = 4 + Math.floor(rnd() * 10);
    const prompt = 'Explain ' + Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ') + '?';
    const t = performance.now();
    const r: any = await cairn.lifecycle.userPromptSubmit({ ...ids, prompt });
    const dt = performance.now() - t;
    times.push([dt, prompt, JSON.stringify(r?.receipt?.pack?.planes?.map((x: any) => [x.plane, x.ms]) ?? Object.keys(r ?? {}))]);
  }
  await cairn.lifecycle.sessionEnd(ids);
}
times.sort((a, b) => a[0] - b[0]);
for (const t of times.slice(-6)) console.log(t[0].toFixed(1), t[1], t[2]);
console.log('p50', times[30]![0].toFixed(1), 'p95', times[57]![0].toFixed(1));
