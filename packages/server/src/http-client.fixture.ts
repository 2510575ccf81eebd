import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers loosely, field by field
  json: () => any;
}

/**
 * One HTTP request with exactly the headers given (a browser's fetch would
 * not let a test forge Host or Origin), to a dashboard on `port`.
 */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Signs in through the one-time URL: the session cookie and the CSRF token. */
export async function signIn(port: number, url: string): Promise<{ cookie: string; csrf: string }> {
  const redeemed = await rawRequest(port, new URL(url).pathname);
  const cookie = String(redeemed.headers['set-cookie']).split(';')[0]!;
  const session = await rawRequest(port, '/api/session', { headers: { cookie } });
  return { cookie, csrf: session.json().csrf };
}
