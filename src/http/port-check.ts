import { createServer } from 'node:net';

/**
 * A start on a port that is taken must say so before it opens or migrates the database and
 * before it writes anything into DATA_DIR. The port is bound once and released at once: a
 * probe, not a reservation (Fastify binds it again a moment later, and a start that loses that
 * race still gets the same plain line from `listenFailure`).
 */

/** Why a listen failed, in the operator's words, with the variable that fixes it. */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use (set PORT)',
  EACCES: 'permission denied (set PORT to 1024 or above)',
  EADDRNOTAVAIL: 'no such address on this machine (set HOST)',
  ENOTFOUND: 'unknown host name (set HOST)',
  EAI_AGAIN: 'host name cannot be resolved now (set HOST)',
};

/** The one line a start prints when it cannot listen. */
export function listenFailure(host: string, port: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = REASONS[code] ?? (code || String((error as Error | undefined)?.message ?? error));
  const where = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return `cannot listen on ${where}: ${reason}`;
}

/** True for an error of listen() that `listenFailure` explains (not a bug to rethrow). */
export function isListenError(error: unknown): boolean {
  const failure = error as NodeJS.ErrnoException | undefined;
  return failure?.syscall === 'listen' || (failure?.code !== undefined && failure.code in REASONS);
}

/**
 * Binds host:port and lets it go; answers the failure line, or undefined when the port is free.
 * Port 0 is never taken (the system picks a free one at listen time), so it is not probed.
 */
export async function portProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return undefined;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    return listenFailure(host, port, error);
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return undefined;
}
