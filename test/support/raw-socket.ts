/**
 * Raw TCP exchanges with a listening gateway, for what app.inject() cannot send: malformed
 * request lines, absurd chunk sizes, clients that send a byte at a time or never finish.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** The status line's code; undefined when the server sent nothing. */
  readonly status: number | undefined;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole text the server sent, head and body. */
  readonly text: string;
  /** The server ended the connection (rather than the wait running out). */
  readonly closedByServer: boolean;
  readonly ms: number;
}

function parse(received: Buffer, closedByServer: boolean, ms: number): RawAnswer {
  const text = received.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  const lines = (headEnd < 0 ? text : text.slice(0, headEnd)).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: status ? Number(status) : undefined, headers, body: headEnd < 0 ? '' : text.slice(headEnd + 4), text, closedByServer, ms };
}

/** A complete answer on a connection the server keeps open; with `connection: close` the close ends it. */
function completeKeptOpen(received: Buffer): boolean {
  const text = received.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0 || /\r\nconnection:\s*close/i.test(text.slice(0, headEnd))) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, headEnd))?.[1];
  return length !== undefined && received.length >= headEnd + 4 + Number(length);
}

export interface RawClient {
  readonly socket: Socket;
  /** Resolves with what the server sent once it closes, answers completely, or waitMs passes. */
  readonly answer: Promise<RawAnswer>;
}

/** Opens a connection; `send` writes the request (or its start) the way the test wants. */
export async function openRaw(port: number, waitMs: number, host = '127.0.0.1'): Promise<RawClient> {
  const socket = connect({ host, port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const started = performance.now();
  const answer = new Promise<RawAnswer>((resolve) => {
    const chunks: Buffer[] = [];
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks), closedByServer, performance.now() - started));
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (completeKeptOpen(Buffer.concat(chunks))) finish(false);
    });
    socket.once('end', () => finish(true));
    socket.once('close', () => finish(true));
  });
  return { socket, answer };
}

/** Sends the bytes at once and waits for the answer. */
export async function rawRequest(port: number, request: string | Buffer, waitMs = 5_000): Promise<RawAnswer> {
  const client = await openRaw(port, waitMs);
  client.socket.write(request);
  return client.answer;
}

/** Writes one byte every `everyMs` until the server closes or the text runs out. */
export function drip(client: RawClient, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (at >= text.length || client.socket.destroyed) return clearInterval(timer);
    client.socket.write(text[at++]!);
  }, everyMs);
  void client.answer.finally(() => clearInterval(timer));
}
