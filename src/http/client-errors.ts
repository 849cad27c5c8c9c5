// Requests the HTTP parser refuses before Fastify sees them (headers or URL beyond the server's
// header size, a malformed request line, a client too slow to send its request) are answered as
// problem+json like every other error, not with the framework's own body.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { problemBody } from './errors.js';

const DETAIL: Record<number, string> = {
  400: 'The request could not be parsed as HTTP',
  408: 'The request was not received in time',
  431: 'The request line and headers together exceed the size the server accepts (16 KiB)',
};

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const title = STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify(problemBody(status, title, DETAIL[status]));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
