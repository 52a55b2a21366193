/**
 * Just enough of PromQL and of the rules file's YAML to check the operations kit (ops/) against
 * the metric catalogue: which metrics and labels an expression names. No YAML parser is installed,
 * and the rules file is ours: its `expr:` values are either on the key's line or a `|` block.
 */

export interface RuleEntry {
  readonly kind: 'record' | 'alert';
  readonly name: string;
  readonly expr: string;
  /** The rule's other keys as written: labels and annotations (`severity`, `runbook_url`, …). */
  readonly fields: Readonly<Record<string, string>>;
}

const KEY_LINE = /^(\s*)(?:- )?([a-z_]+):\s*(.*)$/;

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.endsWith(trimmed[0]!)) return trimmed.slice(1, -1);
  return trimmed;
}

/** The rules of a Prometheus rules file, each with its expression and its other scalar keys. */
export function parseRules(yaml: string): RuleEntry[] {
  const lines = yaml.split('\n');
  const rules: { kind: 'record' | 'alert'; name: string; expr: string; fields: Record<string, string> }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^\s*#/.test(line)) continue;
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    const [, indent, key, rest] = match as unknown as [string, string, string, string];
    if ((key === 'record' || key === 'alert') && line.trimStart().startsWith('- ')) {
      rules.push({ kind: key, name: unquote(rest), expr: '', fields: {} });
      continue;
    }
    const rule = rules.at(-1);
    if (!rule) continue;
    let value = rest;
    if (rest === '|' || rest === '>' || rest === '|-' || rest === '>-') {
      // A block scalar: every following line indented deeper than the key (blank lines included).
      const block: string[] = [];
      while (index + 1 < lines.length && (lines[index + 1]!.trim() === '' || lines[index + 1]!.search(/\S/) > indent.length)) block.push(lines[++index]!);
      const depth = Math.min(...block.filter((l) => l.trim() !== '').map((l) => l.search(/\S/)));
      value = block.map((l) => l.slice(depth)).join('\n');
    }
    if (key === 'expr') rule.expr = value.trim();
    else if (value !== '') rule.fields[key] = unquote(value);
  }
  return rules;
}

/** A selector `name{label="…", …}` of an expression: the metric and the labels it matches on. */
export interface Selector {
  readonly metric: string;
  readonly labels: readonly string[];
}

export interface ExpressionNames {
  readonly selectors: readonly Selector[];
  /** Label names of `by`, `without`, `on`, `ignoring`, `group_left`, `group_right`. */
  readonly groupingLabels: readonly string[];
}

const AGGREGATIONS = ['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio'];
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan', 'atan2', ...AGGREGATIONS]);
const IDENTIFIER = /[a-zA-Z_:][\w:]*/g;

/** The metric names and labels an expression (a rule's or a Grafana panel's) refers to. */
export function namesInExpression(expression: string): ExpressionNames {
  const text = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // string literals: label values, regexes
    .replace(/\$\{?\w+(?::\w+)?\}?/g, ' ') // Grafana variables ($job, ${datasource}, $__rate_interval)
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries: [5m], [1h:1m]
    .replace(/\b\d+(?:ms|s|m|h|d|w|y)\b/g, ' ') // durations after offset / @
    .replace(/(?<![\w:])\d*\.?\d+(?:e[+-]?\d+)?\b/gi, ' '); // numbers (0.99, 1e3)

  const selectors: Selector[] = [];
  const withoutMatchers = text.replace(/([a-zA-Z_:][\w:]*)?\s*\{([^}]*)\}/g, (_whole, metric: string | undefined, matchers: string) => {
    const labels = [...matchers.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!);
    if (metric && !KEYWORDS.has(metric)) selectors.push({ metric, labels });
    return ' ';
  });

  const groupingLabels: string[] = [];
  const withoutGrouping = withoutMatchers.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_whole, list: string) => {
    groupingLabels.push(...list.split(',').map((label) => label.trim()).filter(Boolean));
    return ' ';
  });

  for (const match of withoutGrouping.matchAll(IDENTIFIER)) {
    const name = match[0];
    const after = withoutGrouping.slice(match.index! + name.length);
    if (KEYWORDS.has(name) || /^\s*\(/.test(after)) continue; // a function or an aggregation
    selectors.push({ metric: name, labels: [] });
  }
  return { selectors, groupingLabels };
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
