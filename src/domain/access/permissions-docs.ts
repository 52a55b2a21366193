import { PERMISSIONS, type Action } from './permissions.js';
import { ROLES, ROLE_TITLES } from './roles.js';

export const ROLES_BEGIN = '<!-- roles table: generated from src/domain/access/permissions.ts by `npm run docs` -->';
export const ROLES_END = '<!-- end of the roles table -->';

/** The role × action table of docs/console.md, from PERMISSIONS (the one table the server checks). */
export function renderRolesTable(): string {
  const header = `| Action | ${ROLES.map((role) => ROLE_TITLES[role]).join(' | ')} |`;
  const rule = `|---|${ROLES.map(() => ':-:').join('|')}|`;
  const rows = (Object.keys(PERMISSIONS) as Action[]).map((action) => {
    const allowed = PERMISSIONS[action].roles as readonly string[];
    return `| ${PERMISSIONS[action].describe} (\`${action}\`) | ${ROLES.map((role) => (allowed.includes(role) ? 'yes' : '—')).join(' | ')} |`;
  });
  return [ROLES_BEGIN, '', header, rule, ...rows, '', ROLES_END].join('\n');
}

/** docs/console.md with its roles table replaced by the current one. */
export function spliceRolesTable(markdown: string): string {
  const start = markdown.indexOf(ROLES_BEGIN);
  const end = markdown.indexOf(ROLES_END);
  if (start < 0 || end < start) throw new Error('docs/console.md lacks the roles table markers');
  return markdown.slice(0, start) + renderRolesTable() + markdown.slice(end + ROLES_END.length);
}
