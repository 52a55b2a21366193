import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/load-config.js';
import { stopBoundMs } from '../../src/observability/health/graceful-shutdown.js';

/**
 * ops/systemd/: the units run the built JavaScript with plain node (no build, no TypeScript loader),
 * their stop timeout stays above the bound graceful-shutdown.ts promises, they carry the hardening
 * docs/deployment.md describes, and the example environment file is a configuration the gateway
 * accepts. `systemd-analyze verify` checks them when it is installed (Debian's systemd).
 */
const SYSTEMD = fileURLToPath(new URL('../../ops/systemd/', import.meta.url));
const UNITS = { gateway: 'gateway@.service', worker: 'worker.service', sftp: 'sftp.service' } as const;
/** Where each unit's ExecStart script comes from: the build's output of these sources. */
const ENTRY_SOURCES = { 'dist/main.js': 'src/main.ts', 'dist/worker.js': 'src/worker.ts', 'dist/sftp-main.js': 'src/sftp-main.ts' } as const;

/** `Key=value` lines of a unit file; a key set several times keeps each value. */
function directives(file: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of readFileSync(join(SYSTEMD, file), 'utf8').split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) found.set(match[1]!, [...(found.get(match[1]!) ?? []), match[2]!]);
  }
  return found;
}

const one = (unit: Map<string, string[]>, key: string) => unit.get(key)?.at(-1);
const defaults = loadConfig({});

function envFile(): Record<string, string> {
  const lines = readFileSync(join(SYSTEMD, 'env.example'), 'utf8').split('\n').filter((line) => /^[A-Z_]+=/.test(line));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('ops/systemd units', () => {
  for (const [role, file] of Object.entries(UNITS)) {
    it(`${file}: plain node on a built entry point, restarted on failure, hardened`, () => {
      const unit = directives(file);
      const words = one(unit, 'ExecStart')!.split(/\s+/);
      assert.equal(words[0], '/usr/bin/node');
      assert.ok(!words.some((word) => /tsx|--import|--loader|--experimental/.test(word)), one(unit, 'ExecStart'));
      const script = words.at(-1) as keyof typeof ENTRY_SOURCES;
      assert.ok(existsSync(fileURLToPath(new URL(`../../${ENTRY_SOURCES[script]}`, import.meta.url))), `${script} is not built from a known entry point`);
      for (const [key, value] of [['EnvironmentFile', '/etc/payment-gateway/env'], ['Restart', 'on-failure'], ['KillSignal', 'SIGTERM'], ['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['PrivateTmp', 'yes'], ['ReadWritePaths', '/var/lib/payment-gateway'], ['User', 'payment-gateway']]) {
        assert.equal(one(unit, key!), value, `${file}: ${key}`);
      }
      assert.equal(unit.has('MemoryDenyWriteExecute'), false, 'V8 compiles code at run time');
      // Each instance of the template listens on its own port: gateway@8081.service on 8081.
      if (role === 'gateway') assert.ok(unit.get('Environment')?.includes('PORT=%i'));
    });
  }

  it('stops within TimeoutStopSec: above the drain, the longer of the grace and a webhook call, and the release', () => {
    const timeoutMs = (file: string) => Number(one(directives(file), 'TimeoutStopSec')) * 1000;
    const bound = stopBoundMs(defaults.health, defaults.workers.webhookTimeoutMs);
    assert.ok(timeoutMs(UNITS.gateway) > bound, `gateway: ${timeoutMs(UNITS.gateway)} ms ≤ ${bound} ms`);
    assert.ok(timeoutMs(UNITS.worker) > defaults.workers.webhookTimeoutMs + 5_000);
  });

  it('env.example is a configuration the gateway accepts, with the shutdown the units are sized for', () => {
    const env = envFile();
    assert.equal(env['PORT'], undefined, 'EnvironmentFile= would override the instance\'s PORT');
    const config = loadConfig(env);
    assert.equal(config.system, 'live');
    assert.equal(config.workers.runInGateway, false);
    assert.ok(stopBoundMs(config.health, config.workers.webhookTimeoutMs) < Number(one(directives(UNITS.gateway), 'TimeoutStopSec')) * 1000);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it('systemd-analyze verify accepts them', { skip: analyze ? false : 'systemd-analyze is not installed (Debian systemd)' }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-units-'));
    try {
      for (const file of Object.values(UNITS)) copyFileSync(join(SYSTEMD, file), join(dir, file));
      // A template is verified through an instance of it.
      copyFileSync(join(SYSTEMD, UNITS.gateway), join(dir, 'gateway@8081.service'));
      const result = spawnSync('systemd-analyze', ['verify', ...['gateway@8081.service', UNITS.worker, UNITS.sftp].map((file) => join(dir, file))], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr.trim(), '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
