import { mayPerform } from '../../../domain/access/permissions.js';
import type { RotationReport } from '../../../domain/vault/index.js';
import type { VaultStatus } from '../../../operations/registrations/vault-maintenance.js';
import type { DataKeyUse } from '../../../storage/repositories/sealed-values.js';
import { FormBasics, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { OPERATOR, OperatorLayout } from './operator-index-page.js';

export const VAULT = `${OPERATOR}/vault`;
/** A data key per day: the page counts about three months' worth. */
export const DATA_KEYS_SHOWN = 100;

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

function UseTable({ uses, limit }: { uses: readonly DataKeyUse[]; limit: number }) {
  if (uses.length === 0) return null;
  return (
    <>
      <h2>Sealed values per data key</h2>
      <TableWrap label="Sealed values per data key">
        <table>
          <caption class="visually-hidden">Sealed values per data key</caption>
          <thead><tr><th scope="col">Data key</th><th scope="col">Purpose</th><th scope="col">Day</th><th scope="col">Master key</th><th scope="col">Values it seals</th></tr></thead>
          <tbody>
            {uses.map((u) => (
              <tr key={u.dataKeyId}>
                <td data-label="Data key" class="wrap"><code>{u.dataKeyId}</code></td>
                <td data-label="Purpose">{u.purpose}</td>
                <td data-label="Day">{u.purpose === 'lookup' ? '—' : u.period}</td>
                <td data-label="Master key"><code>{u.masterKeyId}</code></td>
                <td data-label="Values it seals">{u.purpose === 'lookup' ? 'none (keys the look-up hashes)' : u.sealedValues}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p class="hint">{`Stored cards and bank accounts, route credentials, open 3-D Secure redirects, settlement push passwords and console authenticator secrets, each counted under the data key of the day it was sealed; a value cleared (a deregistered card, an ended redirect) no longer counts.${uses.length >= limit ? ` The newest ${limit} data keys.` : ''}`}</p>
    </>
  );
}

/**
 * The vault's key state: every sealed value (cards, bank accounts, route credentials) is encrypted
 * under a data key, and data keys are wrapped by a master key (VAULT_MASTER_KEY, VAULT_ACCEPTED_MASTER_KEYS).
 */
export function VaultPage({ frame, status, uses = [], report }: { frame: PageFrame; status: VaultStatus; uses?: readonly DataKeyUse[]; report?: RotationReport | undefined }) {
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
      <UseTable uses={uses} limit={DATA_KEYS_SHOWN} />
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
