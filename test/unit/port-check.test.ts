import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { isListenError, listenFailure, portProblem } from '../../src/http/port-check.js';

const failure = (code: string, syscall = 'listen') => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });

describe('the line a start prints when it cannot listen', () => {
  const cases: ReadonlyArray<[host: string, port: number, error: unknown, line: string]> = [
    ['127.0.0.1', 8080, failure('EADDRINUSE'), 'cannot listen on 127.0.0.1:8080: address already in use (set PORT)'],
    ['0.0.0.0', 80, failure('EACCES'), 'cannot listen on 0.0.0.0:80: permission denied (set PORT to 1024 or above)'],
    ['::1', 8080, failure('EADDRINUSE'), 'cannot listen on [::1]:8080: address already in use (set PORT)'],
    ['10.99.99.99', 8080, failure('EADDRNOTAVAIL'), 'cannot listen on 10.99.99.99:8080: no such address on this machine (set HOST)'],
    ['no-such-host.invalid', 8080, failure('ENOTFOUND', 'getaddrinfo'), 'cannot listen on no-such-host.invalid:8080: unknown host name (set HOST)'],
    ['127.0.0.1', 8080, failure('EMFILE'), 'cannot listen on 127.0.0.1:8080: EMFILE'],
  ];
  for (const [host, port, error, line] of cases) {
    it(line, () => assert.equal(listenFailure(host, port, error), line));
  }

  it('tells listen errors from bugs', () => {
    assert.equal(isListenError(failure('EADDRINUSE')), true);
    assert.equal(isListenError(failure('ENOTFOUND', 'getaddrinfo')), true);
    assert.equal(isListenError(new TypeError('x is undefined')), false);
  });
});

describe('probing the port', () => {
  it('finds a taken port taken and a free one free, and leaves the free one free', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    assert.equal(await portProblem('127.0.0.1', port), `cannot listen on 127.0.0.1:${port}: address already in use (set PORT)`);
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    assert.equal(await portProblem('127.0.0.1', port), undefined);
    // Released again: it can be bound at once.
    assert.equal(await portProblem('127.0.0.1', port), undefined);
    assert.equal(await portProblem('127.0.0.1', 0), undefined);
  });
});
