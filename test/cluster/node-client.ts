/**
 * Requests to a node of several workers, each on a new connection (`Connection: close`), so each
 * is handed to a worker on its own: in turn, or by its key when the node routes by key.
 */
export function nodeClient(url: string, token: string) {
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: {
        connection: 'close',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
  const metrics = () => call('/metrics').then((r) => r.text());
  /** Until both workers answer for the node (the second starts once the first serves). */
  const bothServing = async () => {
    while (!((await metrics()).includes('worker="1"') && (await metrics()).includes('worker="2"')))
      await new Promise((r) => setTimeout(r, 50));
  };
  return { call, metrics, bothServing };
}
