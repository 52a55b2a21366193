import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 a moment ago, for a server a test must know the address of before
 * it listens (PUBLIC_URL, a redirect's return address, a child process's PORT). Another process
 * could take it in between; the tests' servers listen at once.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
