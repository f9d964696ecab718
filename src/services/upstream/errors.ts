/**
 * Why an upstream call failed, without the upstream's words: its body never travels in an error.
 * - `address`: the URL or a resolved address is refused by the address rules (nothing was sent);
 * - `network`: refused, reset or unresolvable (`sent` says whether the request may have arrived);
 * - `deadline`: the call's one deadline passed, before the headers or while reading the body;
 * - `too_large`: the answer (or one of its lines) passed the byte cap; the connection is closed at once;
 * - `resting`: the lane's upstream broke the byte cap a moment ago; the call was not sent.
 */
export type UpstreamFailure = 'address' | 'network' | 'deadline' | 'too_large' | 'resting';

/** A failed upstream call: the reason, whether the request may have reached the upstream, and whether it answered. */
export class UpstreamError extends Error {
  constructor(
    readonly reason: UpstreamFailure,
    message: string,
    /** The request may have reached the upstream (a write's fate is unknown). */
    readonly sent: boolean,
    /** The upstream had started answering (status and headers arrived). */
    readonly answered = false,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Connection errors that prove the request never left this process. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** An undici or socket error as an `UpstreamError`; an address refusal raised by the lookup keeps its reason. */
export function asUpstreamError(error: unknown, timedOut: boolean, answered: boolean): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof UpstreamError) return cause;
  if (timedOut)
    return new UpstreamError('deadline', answered ? 'timed out reading the answer' : 'timed out', true, answered);
  const code = (error as { code?: string }).code ?? '';
  if (answered) return new UpstreamError('network', 'connection dropped mid-answer', true, true);
  return new UpstreamError('network', code || 'connection failed', !NOT_SENT.has(code));
}
