import { mayPerform } from '../../../domain/access/permissions.js';
import type { riskScopeOf } from '../../../operations/risk/risk-list-entries.js';
import type { riskRulesHistory } from '../../../operations/risk/configure-risk.js';
import { formatTime, type PageFrame, TableWrap } from '../developers/developer-request.js';
import { EntityFields, EntityPicker, errorsOf, FieldErrors, RISK_RULES, RiskLayout, type RiskFormState, valueOf } from './risk-common.js';

type Scope = Awaited<ReturnType<typeof riskScopeOf>>;
type History = Awaited<ReturnType<typeof riskRulesHistory>>;
type Version = History['versions'][number];

interface RulesProps {
  readonly frame: PageFrame;
  readonly scope: Scope;
  readonly history: History | undefined;
  readonly state?: RiskFormState | undefined;
  readonly done?: string | undefined;
}

const pretty = (rules: unknown) => JSON.stringify(rules, null, 2);

/** The top-level fields whose value differs from the version before: what the change was about. */
export function changedFields(version: Version, previous: Version | undefined): string[] {
  if (!previous) return ['first version'];
  const now = (version.rules ?? {}) as Record<string, unknown>;
  const before = (previous.rules ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(now), ...Object.keys(before)])];
  return names.filter((n) => JSON.stringify(now[n]) !== JSON.stringify(before[n]));
}

export function RiskRulesPage({ frame, scope, history, state, done }: RulesProps) {
  const mayManage = mayPerform(frame.user.role, 'risk.rules.manage');
  const current = history?.versions[0];
  return (
    <RiskLayout frame={frame} title="Rule sets">
      {done ? <p class="flash flash-success" role="status">{done.startsWith('restored-') ? `Version ${done.slice(9)} was restored as a new version.` : `Version ${done.replace('saved-', '')} is in force (every gateway process within 5 seconds).`}</p> : null}
      {state ? <p class="flash flash-refused" role="alert">Nothing was saved: see the messages below.</p> : null}
      <p class="muted">One rule set per merchant or channel (its fields: docs/risk.md in the gateway's source). A channel without its own uses its merchant's; a merchant without one, the default rules.</p>
      <EntityPicker action={RISK_RULES} merchants={scope.merchants} merchantId={scope.merchantId} entities={scope.entities} entityId={scope.entityId} />
      {scope.entityId && history ? (
        <>
          <h2>In force</h2>
          {current ? <p>{`Version ${current.version}, saved by ${current.changedBy} on ${formatTime(new Date(current.changedAt))}.`}</p> : <p>No rule set of its own: its merchant's or the default rules apply.</p>}
          {mayManage ? <RulesEditor frame={frame} scope={scope} current={current} state={state} /> : current ? <pre class="body-view">{pretty(current.rules)}</pre> : null}
          <VersionHistory frame={frame} scope={scope} versions={history.versions} mayManage={mayManage} />
        </>
      ) : null}
    </RiskLayout>
  );
}

/** The rule set as JSON; each problem the validation finds listed under it with its place (the path). */
function RulesEditor({ frame, scope, current, state }: { frame: PageFrame; scope: Scope; current: Version | undefined; state: RiskFormState | undefined }) {
  const errors = errorsOf(state, 'rules', 'rules');
  return (
    <form method="post" action={RISK_RULES} class="panel">
      <EntityFields csrfToken={frame.csrfToken} merchantId={scope.merchants ? scope.merchantId : undefined} entityId={scope.entityId!} />
      <label for="rules">Rules (JSON)</label>
      <p id="rules-hint" class="hint">Saving makes a new version; the problems are named by their place, e.g. <code>velocity[0].max</code>.</p>
      <textarea id="rules" name="rules" rows={16} cols={80} spellcheck={false} class="risk-json"
        aria-invalid={errors.length > 0 ? 'true' : undefined} aria-describedby={errors.length > 0 ? 'rules-hint rules-error' : 'rules-hint'}>{valueOf(state, 'rules', 'rules', current ? pretty(current.rules) : '{\n  "enabled": true\n}')}</textarea>
      {errors.length > 0 ? (
        <ul id="rules-error" class="field-error risk-errors">
          {errors.map((message, i) => {
            const at = message.indexOf(': ');
            return <li key={i}>{at > 0 ? <><code>{message.slice(0, at)}</code>{message.slice(at)}</> : message}</li>;
          })}
        </ul>
      ) : null}
      <button type="submit">Save as a new version</button>
    </form>
  );
}

function VersionHistory({ frame, scope, versions, mayManage }: { frame: PageFrame; scope: Scope; versions: readonly Version[]; mayManage: boolean }) {
  if (versions.length === 0) return null;
  return (
    <section aria-labelledby="versions">
      <h2 id="versions">Versions</h2>
      <TableWrap label="Rule set versions">
        <table>
          <caption class="visually-hidden">Rule set versions, newest first</caption>
          <thead><tr><th scope="col">Version</th><th scope="col">Saved by</th><th scope="col">When</th><th scope="col">Changed</th><th scope="col">Rules</th></tr></thead>
          <tbody>
            {versions.map((v, i) => (
              <tr key={v.version}>
                <td data-label="Version">{v.version}{i === 0 ? ' (in force)' : ''}</td>
                <td data-label="Saved by" class="wrap">{v.changedBy}</td>
                <td data-label="When">{formatTime(new Date(v.changedAt))}</td>
                <td data-label="Changed" class="wrap">{changedFields(v, versions[i + 1]).join(', ') || 'nothing'}</td>
                <td data-label="Rules">
                  <details><summary>{`Rules of version ${v.version}`}</summary><pre class="body-view">{pretty(v.rules)}</pre></details>
                  {mayManage && i > 0 ? (
                    <form method="post" action={`${RISK_RULES}/restore`} class="inline">
                      <EntityFields csrfToken={frame.csrfToken} merchantId={scope.merchants ? scope.merchantId : undefined} entityId={scope.entityId!} />
                      <input type="hidden" name="version" value={String(v.version)} />
                      <button type="submit" class="secondary" aria-label={`Restore version ${v.version}`}>Restore</button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
