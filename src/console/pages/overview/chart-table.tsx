/**
 * A chart and the table of the same figures. The table is the page's truth (screen readers, no
 * script, print); the canvas is drawn by assets/overview.js with Chart.js from the data attribute,
 * and hidden from assistive technology because the table beside it says the same.
 */
export interface ChartSpec {
  readonly kind: 'bar' | 'doughnut';
  readonly labels: readonly string[];
  readonly series: readonly { readonly label: string; readonly values: readonly number[] }[];
  /** A value axis of percentages. */
  readonly percent?: boolean;
  /** Bars of several series side by side rather than stacked (they are not parts of one whole). */
  readonly sideBySide?: boolean;
}

export interface TableSpec {
  readonly columns: readonly { readonly label: string; readonly numeric?: boolean }[];
  readonly rows: readonly (readonly string[])[];
}

export function ChartTable({ id, title, chart, table, empty }: { id: string; title: string; chart: ChartSpec; table: TableSpec; empty: string }) {
  const headingId = `${id}-heading`;
  return (
    <section class="overview-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {table.rows.length === 0 ? <p class="muted">{empty}</p> : (
        <div class="overview-pair">
          <div class="overview-chart" aria-hidden="true">
            <canvas id={`${id}-chart`} data-chart={JSON.stringify(chart)} />
          </div>
          <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={headingId}>
            <table>
              <caption class="visually-hidden">{title}</caption>
              <thead>
                <tr>{table.columns.map((column) => <th scope="col" class={column.numeric ? 'number' : undefined}>{column.label}</th>)}</tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr>{row.map((cell, i) => (i === 0 ? <th scope="row">{cell}</th> : <td class={table.columns[i]?.numeric ? 'number' : undefined}>{cell}</td>))}</tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

export const percent = (rate: number | null): string => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`);
export const whole = (n: number): string => n.toLocaleString('en');
