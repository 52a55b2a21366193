import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { decodeMessage, encodeMessage } from '../../../src/connectors/iso8583/codec.js';
import { frame, FrameReader } from '../../../src/connectors/iso8583/framing.js';
import { EMULATOR_PROFILE } from '../../../src/connectors/iso8583/profile.js';
import { handleMessage, type HostState } from '../../../emulators/acquirer-host/handle.js';
import { Ledger } from '../../../emulators/acquirer-host/ledger.js';

/** `ff ff 30`: a length header announcing 65,535 bytes, then the first of them. */
export const PARTIAL_FRAME = Buffer.from([0xff, 0xff, 0x30]);

export interface StuckHost {
  readonly port: number;
  readonly ledger: Ledger;
  /** Connections that got stuck on the partial frame. */
  readonly stuck: number;
  close(): Promise<void>;
}

/**
 * A fake acquirer host on port 0 that answers like the emulator, except that the first
 * connection to carry a payment answers it with a partial frame and then trickles one byte at
 * a time, never finishing it: the connection is alive, its stream is not.
 */
export async function startStuckHost(trickleMs = 200, connectionsToStick = 1): Promise<StuckHost> {
  const state: HostState = { ledger: new Ledger(), clock: () => new Date(), reversals: new Map(), sequence: 0 };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let stuck = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reader = new FrameReader(EMULATOR_PROFILE.framing);
    let trickling = false;
    socket.on('data', (chunk: Buffer) => {
      for (const bytes of reader.push(chunk)) {
        const request = decodeMessage(bytes, EMULATOR_PROFILE);
        if (trickling) continue;
        if (request.mti !== '0800' && stuck < connectionsToStick) {
          stuck += 1;
          trickling = true;
          socket.write(PARTIAL_FRAME);
          const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('0')), trickleMs);
          timers.add(timer);
          continue;
        }
        const { answer } = handleMessage(request, state);
        if (answer) socket.write(frame(encodeMessage(answer, EMULATOR_PROFILE), EMULATOR_PROFILE.framing));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ledger: state.ledger,
    get stuck() {
      return stuck;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
