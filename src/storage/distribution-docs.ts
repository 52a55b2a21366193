import { TABLE_PLACEMENT, type Placement } from './distribution.js';

/** The placement table of docs/scale-out.md, rendered from distribution.ts by `npm run docs`. */
export const PLACEMENT_BEGIN = '<!-- placement table: generated from src/storage/distribution.ts by `npm run docs` -->';
export const PLACEMENT_END = '<!-- end of the placement table -->';

const ORDER: Readonly<Record<Placement['kind'], number>> = { distributed: 0, reference: 1, local: 2 };

function placementCell(placement: Placement): string {
  if (placement.kind !== 'distributed') return placement.kind === 'reference' ? 'reference table' : 'coordinator (local)';
  return `distributed by \`${placement.column}\`${placement.columnExists ? '' : ' (column to add)'}`;
}

export function renderPlacementTable(): string {
  const rows = Object.entries(TABLE_PLACEMENT)
    .sort(([a, pa], [b, pb]) => ORDER[pa.kind] - ORDER[pb.kind] || a.localeCompare(b))
    .map(([table, placement]) => `| \`${table}\` | ${placementCell(placement)} | ${placement.why} |`);
  return [PLACEMENT_BEGIN, '', '| Table | Placement | Why |', '|---|---|---|', ...rows, '', PLACEMENT_END].join('\n');
}

export function splicePlacementTable(markdown: string): string {
  const start = markdown.indexOf(PLACEMENT_BEGIN);
  const end = markdown.indexOf(PLACEMENT_END);
  if (start < 0 || end < start) throw new Error('docs/scale-out.md lacks the placement table markers');
  return markdown.slice(0, start) + renderPlacementTable() + markdown.slice(end + PLACEMENT_END.length);
}
