/**
 * A minimal HTTP/1.1 client over one keep-alive TCP connection that sends request bytes exactly
 * as given, so a fuzz run can send what fetch and node:http refuse to: broken percent-encoding
 * in paths, NUL bytes, odd methods, wrong framing. It reads one answer per request
 * (Content-Length, chunked or until close) and reconnects when the server closes.
 */
import { connect, type Socket } from 'node:net';

export type RawOutcome =
  | { readonly kind: 'answer'; readonly status: number; readonly head: string; readonly body: Buffer; readonly ms: number }
  /** The server closed the connection without answering (allowed only for broken framing). */
  | { readonly kind: 'closed'; readonly ms: number }
  | { readonly kind: 'timeout'; readonly ms: number };

interface ParsedHead {
  readonly status: number;
  readonly headerEnd: number;
  readonly contentLength: number | undefined;
  readonly chunked: boolean;
  readonly close: boolean;
}

function parseHead(buffer: Buffer): ParsedHead | undefined {
  const headerEnd = buffer.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const lines = buffer.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const header = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim().toLowerCase();
  const length = header('content-length');
  return {
    status,
    headerEnd: headerEnd + 4,
    contentLength: length === undefined ? undefined : Number(length),
    chunked: header('transfer-encoding') === 'chunked',
    close: header('connection') === 'close',
  };
}

const headText = (buffer: Buffer, head: ParsedHead) => buffer.subarray(0, head.headerEnd).toString('latin1');

/** The end of a chunked body starting at `from`, or undefined while it is incomplete. */
function chunkedEnd(buffer: Buffer, from: number): number | undefined {
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return buffer.length;
    if (size === 0) {
      const trailerEnd = buffer.indexOf('\r\n\r\n', lineEnd);
      return trailerEnd < 0 ? undefined : trailerEnd + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buffer.length) return undefined;
  }
}

/** Bytes of a complete answer to a request, or undefined while more are needed. */
function completeAnswer(buffer: Buffer, head: ParsedHead, isHead: boolean): number | undefined {
  if (isHead || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) return head.headerEnd;
  if (head.chunked) return chunkedEnd(buffer, head.headerEnd);
  if (head.contentLength !== undefined) return buffer.length >= head.headerEnd + head.contentLength ? head.headerEnd + head.contentLength : undefined;
  return undefined; // until the connection closes
}

export class RawHttpConnection {
  #socket: Socket | undefined;

  constructor(private readonly host: string, private readonly port: number, private readonly timeoutMs: number) {}

  async #open(): Promise<Socket> {
    if (this.#socket && !this.#socket.destroyed) return this.#socket;
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
    socket.on('error', () => undefined);
    this.#socket = socket;
    return socket;
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  /**
   * Sends the bytes, waits for one answer. `isHead`: the answer to HEAD has no body whatever its
   * headers say. `closeAfter`: after broken framing the server may read the rest as a further
   * request and answer it too; a fresh connection keeps that answer from the next request.
   */
  async send(request: Buffer, options: { isHead?: boolean; closeAfter?: boolean } = {}): Promise<RawOutcome> {
    const isHead = options.isHead ?? false;
    const started = performance.now();
    const socket = await this.#open();
    return new Promise<RawOutcome>((resolve) => {
      let buffer = Buffer.alloc(0);
      const finish = (outcome: RawOutcome, keep: boolean) => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        if (!keep) this.close();
        resolve(outcome);
      };
      const onData = (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        const head = parseHead(buffer);
        if (!head) return;
        const end = completeAnswer(buffer, head, isHead);
        if (end === undefined) return;
        // Anything after the answer would belong to no request of ours: start afresh.
        finish({ kind: 'answer', status: head.status, head: headText(buffer, head), body: buffer.subarray(head.headerEnd, end), ms: performance.now() - started }, !head.close && !options.closeAfter && end === buffer.length);
      };
      const onClose = () => {
        const head = parseHead(buffer);
        const ms = performance.now() - started;
        finish(head ? { kind: 'answer', status: head.status, head: headText(buffer, head), body: buffer.subarray(head.headerEnd), ms } : { kind: 'closed', ms }, false);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout', ms: performance.now() - started }, false), this.timeoutMs);
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.write(request);
    });
  }
}
