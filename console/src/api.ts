import type { Problem } from './types.js';

/** An admin API answer other than 2xx, with the server's sentence and (for 422) each problem's path. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: Problem[] = [],
    /** The answer's `code` and `parameter`, when it names them (`missing_parameter`, `shop_product_ids`). */
    readonly code: string | null = null,
    readonly parameter: string | null = null,
  ) {
    super(message);
  }
}

export interface Api {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/** Calls /admin/v1 with the signed-in bearer; a 401 signs the user out. */
export function createApi(token: string, onUnauthorized: () => void): Api {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      /* a proxy's HTML error page */
    }
    if (!response.ok) {
      if (response.status === 401) onUnauthorized();
      const error = (json ?? {}) as { error?: string; problems?: Problem[]; code?: string; parameter?: string };
      throw new ApiError(
        response.status,
        failureText(response.status, error.error, error.code),
        error.problems ?? [],
        error.code ?? null,
        error.parameter ?? null,
      );
    }
    return json as T;
  }
  return {
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
  };
}

/**
 * The sentence for an answer other than 2xx: the server's own, except where it has nothing to tell a merchant
 * (an internal error, a proxy's page for a server that is down).
 */
function failureText(status: number, said: string | undefined, code: string | undefined): string {
  if (status >= 500 && (said === undefined || code === 'internal_error'))
    return `The server is not answering properly (${status}). Try again in a moment.`;
  return said ?? `The server answered ${status}.`;
}
