import { mayPerform } from '../../../domain/access/permissions.js';
import type { riskListsOf } from '../../../operations/risk/risk-list-entries.js';
import type { HandledEntry } from '../../../storage/repositories/risk-config.js';
import { formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { EntityFields, EntityPicker, errorsOf, FieldErrors, RISK_LISTS, RiskLayout, type RiskFormState, valueOf } from './risk-common.js';

export type RiskListsView = Awaited<ReturnType<typeof riskListsOf>>;

const LIST_LABELS = { black: 'Blacklist', white: 'Whitelist' } as const;
const KIND_LABELS: Readonly<Record<string, string>> = { card: 'Card', iban: 'IBAN', bin: 'BIN', email: 'E-mail', ip: 'IP address', country: 'Country' };
const DONE: Readonly<Record<string, string>> = {
  added: 'The entry was added; payments are checked against it at once.',
  'already-listed': 'The entry was on the list already: nothing changed.',
  removed: 'The entry was removed.',
};

interface ListsProps {
  readonly frame: PageFrame;
  readonly view: RiskListsView;
  readonly state?: RiskFormState | undefined;
  readonly done?: string | undefined;
}

export function RiskListsPage({ frame, view, state, done }: ListsProps) {
  const mayManage = mayPerform(frame.user.role, 'risk.lists.manage');
  const merchantField = view.merchants ? view.merchantId : undefined;
  return (
    <RiskLayout frame={frame} title="Black- and whitelists">
      {done && DONE[done] ? <p class="flash flash-success" role="status">{DONE[done]}</p> : null}
      {done?.startsWith('imported-') ? <p class="flash flash-success" role="status">{importedText(done)}</p> : null}
      {state ? (
        <div class="flash flash-refused" role="alert">
          <p>Nothing was changed: see the messages below.</p>
          {state.form === 'remove' ? <ul>{Object.values(state.errors).flat().map((m, i) => <li key={i}>{m}</li>)}</ul> : null}
        </div>
      ) : null}
      <p class="muted">A merchant's entries apply to all its channels; a channel's to that channel. Cards and IBANs are kept as the vault's fingerprint, shown as their first six and last four characters.</p>
      <EntityPicker action={RISK_LISTS} merchants={view.merchants} merchantId={view.merchantId} entities={view.entities} entityId={view.entityId} />
      {view.entityId ? (
        <>
          {(['black', 'white'] as const).map((list) => (
            <section key={list} aria-labelledby={`${list}-heading`}>
              <h2 id={`${list}-heading`}>{`${LIST_LABELS[list]} (${view[list].length})`}</h2>
              <EntryTable list={list} entries={view[list]} removable={mayManage ? { frame, merchantId: merchantField, entityId: view.entityId! } : undefined} />
            </section>
          ))}
          {mayManage ? <ChangeForms frame={frame} merchantId={merchantField} entityId={view.entityId} state={state} /> : null}
        </>
      ) : null}
    </RiskLayout>
  );
}

function importedText(done: string): string {
  const [, added = '0', already = '0'] = /^imported-(\d+)-(\d+)$/.exec(done) ?? [];
  return `Imported: ${added} entr${added === '1' ? 'y' : 'ies'} added, ${already} already on the list.`;
}

function EntryTable({ list, entries, removable }: { list: 'black' | 'white'; entries: readonly HandledEntry[]; removable: { frame: PageFrame; merchantId: string | undefined; entityId: string } | undefined }) {
  if (entries.length === 0) return <p>No entries.</p>;
  return (
    <TableWrap label={LIST_LABELS[list]}>
      <table>
        <caption class="visually-hidden">{LIST_LABELS[list]}</caption>
        <thead><tr><th scope="col">Kind</th><th scope="col">Entry</th><th scope="col">Reason</th><th scope="col">Added by</th><th scope="col">Added</th>{removable ? <th scope="col"><span class="visually-hidden">Remove</span></th> : null}</tr></thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.handle}>
              <td data-label="Kind">{KIND_LABELS[e.kind] ?? e.kind}</td>
              <td data-label="Entry" class="wrap"><code>{e.shown}</code></td>
              <td data-label="Reason" class="wrap">{e.reason ?? '—'}</td>
              <td data-label="Added by" class="wrap">{e.addedBy}</td>
              <td data-label="Added">{formatTime(e.addedAt)}</td>
              {removable ? (
                <td data-label="">
                  <form method="post" action={`${RISK_LISTS}/remove`} class="inline">
                    <EntityFields csrfToken={removable.frame.csrfToken} merchantId={removable.merchantId} entityId={removable.entityId} />
                    <input type="hidden" name="list" value={list} />
                    <input type="hidden" name="entry" value={e.handle} />
                    <button type="submit" class="secondary" aria-label={`Remove ${KIND_LABELS[e.kind] ?? e.kind} ${e.shown} from the ${list}list`}>Remove</button>
                  </form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function ListSelect({ id, state, form }: { id: string; state: RiskFormState | undefined; form: string }) {
  const current = valueOf(state, form, 'list', 'black');
  return (
    <>
      <label for={id}>List</label>
      <select id={id} name="list">
        <option value="black" selected={current === 'black'}>Blacklist</option>
        <option value="white" selected={current === 'white'}>Whitelist</option>
      </select>
    </>
  );
}

function described(id: string, errors: readonly string[], hint?: boolean): string | undefined {
  return [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The number field never holds a value: type password (not kept by the browser's form restore on re-render), no autocomplete. */
function AddCardForm({ frame, merchantId, entityId, state }: { frame: PageFrame; merchantId: string | undefined; entityId: string; state: RiskFormState | undefined }) {
  const f = 'card';
  const numberErrors = [...errorsOf(state, f, 'value'), ...errorsOf(state, f, 'kind')];
  const reasonErrors = errorsOf(state, f, 'reason');
  return (
    <form method="post" action={RISK_LISTS} class="panel" autoComplete="off">
      <h2>Add a card or IBAN</h2>
      <EntityFields csrfToken={frame.csrfToken} merchantId={merchantId} entityId={entityId} />
      <input type="hidden" name="form" value={f} />
      <ListSelect id="card-list" state={state} form={f} />
      <label for="card-kind">Kind</label>
      <select id="card-kind" name="kind">
        <option value="card" selected={valueOf(state, f, 'kind', 'card') === 'card'}>Card number</option>
        <option value="iban" selected={valueOf(state, f, 'kind') === 'iban'}>IBAN</option>
      </select>
      <label for="card-number">Number</label>
      <p id="card-number-hint" class="hint">Typed only here, never shown again: the list keeps the vault's fingerprint.</p>
      <input id="card-number" name="value" type="password" autoComplete="off" spellcheck={false} required size={28} value=""
        aria-invalid={numberErrors.length > 0 ? 'true' : undefined} aria-describedby={described('card-number', numberErrors, true)} />
      <FieldErrors id="card-number" messages={numberErrors} />
      <ReasonField id="card-reason" state={state} form={f} errors={reasonErrors} />
      <button type="submit">Add</button>
    </form>
  );
}

function ReasonField({ id, state, form, errors }: { id: string; state: RiskFormState | undefined; form: string; errors: readonly string[] }) {
  return (
    <>
      <label for={id}>Reason (optional)</label>
      <input id={id} name="reason" maxLength={500} size={40} value={valueOf(state, form, 'reason')} aria-invalid={errors.length > 0 ? 'true' : undefined} aria-describedby={described(id, errors)} />
      <FieldErrors id={id} messages={errors} />
    </>
  );
}

function AddValueForm({ frame, merchantId, entityId, state }: { frame: PageFrame; merchantId: string | undefined; entityId: string; state: RiskFormState | undefined }) {
  const f = 'value';
  const valueErrors = [...errorsOf(state, f, 'value'), ...errorsOf(state, f, 'kind')];
  return (
    <form method="post" action={RISK_LISTS} class="panel">
      <h2>Add an e-mail address, IP address, BIN or country</h2>
      <EntityFields csrfToken={frame.csrfToken} merchantId={merchantId} entityId={entityId} />
      <input type="hidden" name="form" value={f} />
      <ListSelect id="value-list" state={state} form={f} />
      <label for="value-kind">Kind</label>
      <select id="value-kind" name="kind">
        {(['email', 'ip', 'bin', 'country'] as const).map((k) => <option key={k} value={k} selected={valueOf(state, f, 'kind', 'email') === k}>{KIND_LABELS[k]}</option>)}
      </select>
      <label for="value-value">Value</label>
      <p id="value-value-hint" class="hint">An e-mail or IP address in any of its forms; a BIN of 6 to 8 digits; a country as its two letters (DE).</p>
      <input id="value-value" name="value" autoComplete="off" required size={40} value={valueOf(state, f, 'value')}
        aria-invalid={valueErrors.length > 0 ? 'true' : undefined} aria-describedby={described('value-value', valueErrors, true)} />
      <FieldErrors id="value-value" messages={valueErrors} />
      <ReasonField id="value-reason" state={state} form={f} errors={errorsOf(state, f, 'reason')} />
      <button type="submit">Add</button>
    </form>
  );
}

/** The CSV is never sent back: it may hold card numbers. Its lines' problems are listed by number. */
function ImportForm({ frame, merchantId, entityId, state }: { frame: PageFrame; merchantId: string | undefined; entityId: string; state: RiskFormState | undefined }) {
  const errors = errorsOf(state, 'import', 'csv');
  return (
    <form method="post" action={`${RISK_LISTS}/import`} class="panel" autoComplete="off">
      <h2>Import a CSV</h2>
      <EntityFields csrfToken={frame.csrfToken} merchantId={merchantId} entityId={entityId} />
      <ListSelect id="import-list" state={state} form="import" />
      <label for="import-csv">Entries</label>
      <p id="import-csv-hint" class="hint">One entry a line: <code>kind,value,reason</code> (the reason may be left out; a first line <code>kind,value,reason</code> is skipped). Kinds: card, iban, bin, email, ip, country. One wrong line refuses the whole import; paste it again after fixing it.</p>
      <textarea id="import-csv" name="csv" rows={6} cols={60} required spellcheck={false} autoComplete="off"
        aria-invalid={errors.length > 0 ? 'true' : undefined} aria-describedby={described('import-csv', errors, true)}></textarea>
      <FieldErrors id="import-csv" messages={errors} />
      <button type="submit">Import</button>
    </form>
  );
}

function ChangeForms(props: { frame: PageFrame; merchantId: string | undefined; entityId: string; state: RiskFormState | undefined }) {
  return (
    <div class="risk-forms">
      <AddCardForm {...props} />
      <AddValueForm {...props} />
      <ImportForm {...props} />
    </div>
  );
}
