import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorBody } from '../../domain/errors.js';

/**
 * Room for the request line and headers: a GET of up to 32,000 bytes (the platform widget posts
 * past that, docs/api.md) with a browser's headers beside it. Node's default is 16 KB.
 */
export const MAX_HEADER_BYTES = 48 * 1024;

/** What Node's parser refuses, by its error code: the status, our code and the caller's message. */
function refusal(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      code: 'headers_too_large',
      message: `The request line and headers are over ${MAX_HEADER_BYTES / 1024} KB; POST long parameter lists.`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'request_timeout', message: 'The request did not arrive in time.' };
  return {
    status: 400,
    code: 'bad_request',
    message: 'The request is not valid HTTP (an unknown method, or bytes a URL or header cannot hold).',
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (Fastify's `clientErrorHandler`)
 * answer like every other error: `{"error", "code"}`, JSON, nosniff, and the connection closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, code, message } = refusal(error.code);
    const body = JSON.stringify(errorBody(code, message));
    const head =
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n`;
    socket.write(`${head}\r\n${body}`);
  }
  socket.destroy(error);
}
