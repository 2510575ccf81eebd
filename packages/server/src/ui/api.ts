/** The dashboard API as the page calls it: same origin, the session cookie, the CSRF header on writes. */

export interface ApiErrorBody {
  code: string;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

let csrf: { header: string; token: string } | undefined;

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const error = (json as { error?: ApiErrorBody }).error ?? {
      code: 'INTERNAL',
      message: `HTTP ${response.status}`,
    };
    throw new ApiError(response.status, error);
  }
  return json as T;
}

export async function apiGet<T>(path: string): Promise<T> {
  return answer<T>(await fetch(path, { credentials: 'same-origin' }));
}

async function csrfHeader(): Promise<{ header: string; token: string }> {
  if (!csrf) {
    const session = await apiGet<{ csrf: string; csrfHeader: string }>('/api/session');
    csrf = { header: session.csrfHeader, token: session.csrf };
  }
  return csrf;
}

export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const { header, token } = await csrfHeader();
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: {
      [header]: token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return answer<T>(await fetch(path, init));
}

/** `?a=1&b=2` from the defined values. */
export function query(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
