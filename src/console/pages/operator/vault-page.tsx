import { mayPerform } from '../../../domain/access/permissions.js';
import type { RotationReport } from '../../../domain/vault/index.js';
import type { VaultStatus } from '../../../operations/registrations/vault-maintenance.js';
import { FormBasics, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { OPERATOR, OperatorLayout } from './operator-index-page.js';

export const VAULT = `${OPERATOR}/vault`;

function KeyTable({ status }: { status: VaultStatus }) {
  if (status.dataKeys.length === 0) return <p>No data key yet: nothing is sealed.</p>;
  return (
    <TableWrap label="Data keys by master key">
      <table>
        <caption class="visually-hidden">Data keys by master key</caption>
        <thead><tr><th scope="col">Master key</th><th scope="col">Purpose</th><th scope="col">Data keys it wraps</th><th scope="col">Current</th></tr></thead>
        <tbody>
          {status.dataKeys.map((k) => (
            <tr key={`${k.masterKeyId}/${k.purpose}`}>
              <td data-label="Master key"><code>{k.masterKeyId}</code></td>
              <td data-label="Purpose">{k.purpose}</td>
              <td data-label="Data keys it wraps">{k.count}</td>
              <td data-label="Current" class={k.current ? 'success' : 'error'}>{k.current ? 'current' : 'old: rotate'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * The vault's key state: every sealed value (cards, bank accounts, route credentials) is encrypted
 * under a data key, and data keys are wrapped by a master key (VAULT_MASTER_KEY, VAULT_ACCEPTED_MASTER_KEYS).
 */
export function VaultPage({ frame, status, report }: { frame: PageFrame; status: VaultStatus; report?: RotationReport | undefined }) {
  const old = status.dataKeys.filter((k) => !k.current).reduce((sum, k) => sum + k.count, 0);
  return (
    <OperatorLayout frame={frame} title="Vault keys">
      {report ? (
        <p class="success" role="status">{`Rotation done: ${report.rewrapped} data keys re-wrapped by ${report.currentMasterKeyId}${report.skipped > 0 ? `, ${report.skipped} already re-wrapped by another process` : ''}.`}</p>
      ) : null}
      <dl class="dev-facts">
        <dt>Current master key</dt><dd><code>{status.currentMasterKeyId}</code></dd>
        <dt>Data keys under an old master key</dt><dd>{old}</dd>
      </dl>
      <KeyTable status={status} />
      <p class="hint">An old master key may leave VAULT_ACCEPTED_MASTER_KEYS once it wraps no data key. The sealed values themselves are not re-encrypted: only their data keys are re-wrapped, so the rotation takes a moment whatever the number of cards.</p>
      {mayPerform(frame.user.role, 'vault.rotate') ? (
        <form method="post" action={`${VAULT}/rotate`} class="panel narrow">
          <h2>Rotate</h2>
          <p>{old > 0 ? `Re-wrap the ${old} data keys under old master keys by ${status.currentMasterKeyId}.` : 'Every data key is wrapped by the current master key; a rotation now changes nothing.'}</p>
          <FormBasics csrfToken={frame.csrfToken} />
          <button type="submit">Rotate to the current master key</button>
        </form>
      ) : null}
    </OperatorLayout>
  );
}
