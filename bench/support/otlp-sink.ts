import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * A collector stand-in for the tracing row: a process of its own (so that it takes no turn on the
 * load generator's event loop) that accepts OTLP/HTTP on /v1/traces, reads each body, counts its
 * bytes and spans and throws them away.
 */
const SINK_SOURCE = `
const http = require('node:http');
let bodies = 0, bytes = 0, spans = 0;
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => { bytes += chunk.length; chunks.push(chunk); });
  request.on('end', () => {
    bodies += 1;
    // Each span has one "kind" (links and events have none): counted without parsing.
    spans += Buffer.concat(chunks).toString().split('"kind":').length - 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
process.on('message', () => process.send({ bodies, bytes, spans }));
`;

export interface OtlpSink {
  readonly endpoint: string;
  /** Export requests, bytes and spans received so far. */
  received(): Promise<{ bodies: number; bytes: number; spans: number }>;
  stop(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SINK_SOURCE], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const { port } = JSON.parse(line.toString()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async received() {
      child.send('count');
      const [counts] = (await once(child, 'message')) as [{ bodies: number; bytes: number; spans: number }];
      return counts;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
