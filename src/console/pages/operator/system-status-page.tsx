import type { SystemStatus } from '../../../operations/operator/system-status.js';
import { formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { OperatorLayout } from './operator-index-page.js';
import { passes } from '../../../observability/health/readiness.js';

const CHECK_TITLES: Readonly<Record<string, string>> = { database: 'Database', migrations: 'Migrations', redis: 'Redis', 'job-worker': 'Job workers' };

function Checks({ checks }: { checks: SystemStatus['checks'] }) {
  return (
    <TableWrap label="Readiness checks">
      <table>
        <caption class="visually-hidden">Readiness checks</caption>
        <thead><tr><th scope="col">Check</th><th scope="col">State</th></tr></thead>
        <tbody>
          {Object.entries(checks).map(([name, state]) => (
            <tr key={name}>
              <td data-label="Check">{CHECK_TITLES[name] ?? name}</td>
              <td data-label="State" class={passes(state) ? 'status status-success' : 'status status-rejected'}>{state}</td>
            </tr>
          ))}
          {'redis' in checks ? null : (
            <tr><td data-label="Check">Redis</td><td data-label="State">not configured (REDIS_URL unset): throttling counts in each process's memory</td></tr>
          )}
        </tbody>
      </table>
    </TableWrap>
  );
}

function Workers({ workers }: { workers: SystemStatus['workers'] }) {
  const noWorker = !workers.some((w) => w.role === 'worker');
  return (
    <>
      {noWorker ? <p class="notice">No job worker has a heartbeat: background jobs (webhooks, pending checks, settlement) are not running anywhere.</p> : null}
      {workers.length > 0 ? (
        <TableWrap label="Gateway and job worker processes">
          <table>
            <caption class="visually-hidden">Gateway and job worker processes</caption>
            <thead><tr><th scope="col">Role</th><th scope="col">Host</th><th scope="col">Process id</th><th scope="col">Version</th><th scope="col">Started</th><th scope="col">Last heartbeat</th></tr></thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.workerId}>
                  <td data-label="Role">{w.role === 'gateway' ? 'gateway' : 'job worker'}</td>
                  <td data-label="Host" class="wrap">{w.host}</td>
                  <td data-label="Process id">{w.pid}</td>
                  <td data-label="Version">{w.version ?? 'unknown'}</td>
                  <td data-label="Started">{formatTime(w.startedAt)}</td>
                  <td data-label="Last heartbeat">{`${w.lastBeatAgeSeconds} s ago`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </>
  );
}

function Migrations({ status }: { status: SystemStatus }) {
  const applied = status.migrations.filter((m) => m.appliedAt !== null);
  const latest = applied.at(-1);
  return (
    <>
      <p>
        {applied.length} applied of {status.migrations.filter((m) => !m.unknownToThisBuild).length} this build ships
        {latest ? `; the latest ${String(latest.version).padStart(3, '0')} ${latest.name}` : ''}.
        {status.migrationsPending > 0 ? <strong class="error"> {status.migrationsPending} not applied yet.</strong> : null}
      </p>
      <details>
        <summary>Every migration</summary>
        <TableWrap label="Migrations">
          <table>
            <caption class="visually-hidden">Migrations</caption>
            <thead><tr><th scope="col">Version</th><th scope="col">Name</th><th scope="col">Applied</th></tr></thead>
            <tbody>
              {status.migrations.map((m) => (
                <tr key={m.version}>
                  <td data-label="Version">{String(m.version).padStart(3, '0')}</td>
                  <td data-label="Name" class="wrap">{m.name}{m.unknownToThisBuild ? ' (unknown to this build)' : ''}</td>
                  <td data-label="Applied">{m.appliedAt ? formatTime(m.appliedAt) : 'not applied'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </>
  );
}

/** The system status: what GET /health/ready says about this process, and what runs beside it. */
export function SystemStatusPage({ frame, status }: { frame: PageFrame; status: SystemStatus }) {
  const verdict = status.draining ? 'This process is shutting down (draining).' : status.ready ? 'This process is ready: every check passes.' : 'This process is not ready: a check fails.';
  return (
    <OperatorLayout frame={frame} title="System status">
      <p class={status.ready ? 'success' : 'error'} role="status"><strong>{verdict}</strong></p>
      <h2>Health</h2>
      <Checks checks={status.checks} />
      <h2>Processes</h2>
      <Workers workers={status.workers} />
      <h2>Versions</h2>
      <dl class="dev-facts">
        <dt>Gateway</dt><dd>{status.versions.gateway}</dd>
        <dt>Node.js</dt><dd>{status.versions.node}</dd>
        <dt>Database</dt><dd>{`PostgreSQL ${status.versions.database}${status.versions.storage === 'pglite' ? ' (embedded PGlite)' : ''}`}</dd>
      </dl>
      <h2>Migrations</h2>
      <Migrations status={status} />
    </OperatorLayout>
  );
}
