/**
 * A misbehaving network in front of an ISO 8583 host: everything passes both ways, except that a
 * connection it is told to stick answers the next payment with `ff ff 30` (a length header
 * announcing 65,535 bytes, then the first of them) and then trickles one byte at a time, never
 * finishing the frame, while the host behind it goes on booking what the gateway sends.
 * ASCII profiles only (the MTI is read as the frame's first four characters).
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { frame, FrameReader } from '../../../src/connectors/iso8583/framing.js';

const PARTIAL_FRAME = Buffer.from([0xff, 0xff, 0x30]);

export class IsoHostProxy {
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #server: Server | undefined;
  #toStick = 0;
  /** When each connection got stuck (ms since the epoch). */
  readonly stuckAt: number[] = [];

  constructor(private readonly hostPort: number, private readonly trickleMs = 100) {}

  async listen(): Promise<number> {
    this.#server = createServer((client) => this.#accept(client));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as AddressInfo).port;
  }

  /** The next connection to carry a payment's answer gets stuck on a partial frame. */
  stickNext(): void {
    this.#toStick += 1;
  }

  #accept(client: Socket): void {
    const host = connect({ host: '127.0.0.1', port: this.hostPort });
    for (const socket of [client, host]) {
      this.#sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.#sockets.delete(socket);
        client.destroy();
        host.destroy();
      });
    }
    client.pipe(host);
    const reader = new FrameReader('binary2');
    let stuck = false;
    host.on('data', (chunk: Buffer) => {
      for (const message of reader.push(chunk)) {
        if (stuck) continue;
        const mti = message.subarray(0, 4).toString('latin1');
        if (mti !== '0810' && this.#toStick > 0) {
          this.#toStick -= 1;
          stuck = true;
          this.stuckAt.push(Date.now());
          client.write(PARTIAL_FRAME);
          const timer = setInterval(() => (client.destroyed ? clearInterval(timer) : client.write('0')), this.trickleMs);
          this.#timers.add(timer);
          continue;
        }
        client.write(frame(message, 'binary2'));
      }
    });
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
