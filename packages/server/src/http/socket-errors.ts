import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { errorCatalogue, errorMessage, type ErrorCode } from '@cambio/contract';

/**
 * Answers what Node refuses before Fastify sees a request (a slow client past the request timeout, headers
 * over 16 KiB, bytes that are not HTTP) in the envelope like every other refusal, then closes the socket.
 * No request was parsed, so the language is the default and the traceId is made here.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request.timeout'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'request.headers_too_large'
        : 'request.bad_request';
  const status = errorCatalogue[code].status;
  const traceId = randomUUID();
  const body = JSON.stringify({
    success: false,
    message: errorMessage(code, 'es'),
    data: null,
    code,
    timestamp: new Date().toISOString(),
    traceId,
    pagination: null,
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-trace-id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
