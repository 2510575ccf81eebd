import * as z from 'zod/mini';
import { type ControlRequest, HOOK_PROTOCOL_VERSION, type HookRequest } from './hook-protocol';

/* The hook server's reading of what a client sends (hook-protocol.ts), with zod. */

const eventSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  argv: z.array(z.string()).check(z.maxLength(64)),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdin: z.union([
    z.object({ text: z.string() }),
    z.object({ terminal: z.literal(true) }),
    z.object({ limit: z.object({ kind: z.enum(['timeout', 'too-large']), value: z.number() }) }),
  ]),
});
const controlSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  control: z.enum(['status', 'stop']),
});
const helloSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  hello: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

/** The challenge of a client's hello line (hex), or undefined when the line is not one. */
export function parseHello(line: string | undefined): string | undefined {
  const hello = z.safeParse(helloSchema, parseJson(line));
  return hello.success ? hello.data.hello : undefined;
}

/** An event or a control request, or undefined when the text is neither. */
export function parseRequest(text: string | undefined): HookRequest | ControlRequest | undefined {
  const value = parseJson(text);
  const control = z.safeParse(controlSchema, value);
  if (control.success) return control.data as ControlRequest;
  const event = z.safeParse(eventSchema, value);
  return event.success ? (event.data as HookRequest) : undefined;
}
