import type { Attributes } from '@opentelemetry/api';

const FIRST_WORD = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/;

/**
 * The statement's command (SELECT, INSERT, WITH …): its first keyword, never anything after it,
 * so that no value written into the text (there should be none: every query is parameterised)
 * can reach a span.
 */
export function operationOf(sql: string): string {
  return FIRST_WORD.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
}

/**
 * A statement's span attributes: the database, the command and the statement's name (its
 * prepared name when it has one), never its text or parameters.
 */
export function statementAttributes(sql: string, prepareAs: string | undefined, storageKind: string): { name: string; attributes: Attributes } {
  const operation = operationOf(sql);
  const summary = prepareAs ?? operation;
  return {
    name: summary,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.summary': summary, 'gateway.storage.kind': storageKind },
  };
}
