/**
 * A TCP proxy between a gateway and PostgreSQL whose link can be cut and restored, so a test can
 * take the database away from one gateway process without touching the shared server.
 *
 * - `reset`: every open connection is reset and new ones are reset as soon as they arrive, as
 *   when the server restarts or a firewall rejects.
 * - `blackhole`: connections stay open but nothing passes in either direction (what was sent is
 *   held back), as in a network partition; new connections are accepted and hang the same way.
 * `restore()` lets everything through again; held-back bytes are delivered, as TCP would once a
 * partition heals.
 * `cutWhenClientSends(markers, deliver)` cuts, once, the one connection on which the client next
 * sends bytes containing one of the markers (a COMMIT, a prepared statement's name): with `deliver` the
 * server gets those bytes and the client never gets the answer (committed, unacknowledged);
 * without, they are dropped with the connection (never executed). Either way the client cannot tell.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type CutMode = 'reset' | 'blackhole';

interface Link {
  readonly client: Socket;
  readonly server: Socket;
}

interface Trigger {
  readonly markers: readonly Buffer[];
  readonly deliver: boolean;
  readonly fired: () => void;
}

export class TcpProxy {
  readonly #links = new Set<Link>();
  #server: Server | undefined;
  #cut: CutMode | undefined;
  #trigger: Trigger | undefined;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  async listen(): Promise<number> {
    this.#server = createServer((client) => this.#accept(client));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as AddressInfo).port;
  }

  get openLinks(): number {
    return this.#links.size;
  }

  #accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.#cut === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const server = connect({ host: this.targetHost, port: this.targetPort });
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
    const link = { client, server };
    this.#links.add(link);
    const forget = () => {
      this.#links.delete(link);
      client.destroy();
      server.destroy();
    };
    client.on('close', forget);
    server.on('close', forget);
    // Before the pipe's own listener (the chunk not yet forwarded) and after it (forwarded).
    client.prependListener('data', (chunk: Buffer) => this.#watch(link, chunk, false));
    client.pipe(server);
    client.on('data', (chunk: Buffer) => this.#watch(link, chunk, true));
    server.pipe(client);
    if (this.#cut === 'blackhole') this.#hold(link);
  }

  #watch(link: Link, chunk: Buffer, forwarded: boolean): void {
    const trigger = this.#trigger;
    if (!trigger || trigger.deliver !== forwarded || !trigger.markers.some((marker) => chunk.includes(marker))) return;
    this.#trigger = undefined;
    // Not delivered: the server side goes first, so the pipe's write of this chunk finds it destroyed.
    if (!forwarded) link.server.destroy();
    link.client.resetAndDestroy();
    // Delivered: the server keeps the bytes already written and sees the connection end after them.
    if (forwarded) link.server.end();
    trigger.fired();
  }

  /** Resolves once the cut happened. */
  cutWhenClientSends(markers: string | readonly string[], deliver: boolean): Promise<void> {
    return new Promise((fired) => {
      this.#trigger = { markers: (typeof markers === 'string' ? [markers] : markers).map((m) => Buffer.from(m)), deliver, fired };
    });
  }

  /** Stops both directions; paused streams keep what arrives until they resume. */
  #hold(link: Link): void {
    link.client.unpipe(link.server);
    link.server.unpipe(link.client);
    link.client.pause();
    link.server.pause();
  }

  cut(mode: CutMode): void {
    this.#cut = mode;
    for (const link of [...this.#links]) {
      if (mode === 'reset') {
        link.client.resetAndDestroy();
        link.server.destroy();
      } else {
        this.#hold(link);
      }
    }
  }

  restore(): void {
    const wasBlackholed = this.#cut === 'blackhole';
    this.#cut = undefined;
    if (!wasBlackholed) return;
    for (const link of this.#links) {
      link.client.pipe(link.server);
      link.server.pipe(link.client);
    }
  }

  async close(): Promise<void> {
    for (const link of this.#links) {
      link.client.destroy();
      link.server.destroy();
    }
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
