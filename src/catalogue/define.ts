import type { Endpoint, EndpointUse, FieldFormat, MaskStyle, ParameterRow } from './types.js';

/** Compact row definitions: a section's defaults plus [name, format, overrides] per row. */

export const DEFAULT_CODE = '200.300.404';

export interface RowOverrides {
  readonly use?: EndpointUse;
  readonly code?: string;
  readonly missingCode?: string;
  readonly requiredWithin?: string;
  readonly secret?: MaskStyle;
  readonly echo?: boolean;
  readonly keyFormat?: FieldFormat;
  readonly description?: string;
  readonly sample?: string;
  readonly invalidSample?: string;
}

export interface SectionDefaults extends RowOverrides {
  readonly section: string;
  readonly use: EndpointUse;
}

export type RowSpec = readonly [name: string, format: FieldFormat, overrides?: RowOverrides];

export function defineRows(defaults: SectionDefaults, specs: readonly RowSpec[]): ParameterRow[] {
  return specs.map(([name, format, overrides = {}]) => {
    const merged = { ...defaults, ...overrides };
    const row: ParameterRow = {
      name,
      section: defaults.section,
      format,
      use: merged.use,
      echo: merged.echo ?? true,
      code: merged.code ?? DEFAULT_CODE,
      missingCode: merged.missingCode ?? merged.code ?? DEFAULT_CODE,
      description: merged.description ?? '',
      validSample: merged.sample ?? format.sample,
      invalidSample: merged.invalidSample ?? format.badSample,
      ...(merged.keyFormat ? { keyFormat: merged.keyFormat } : {}),
      ...(merged.requiredWithin ? { requiredWithin: merged.requiredWithin } : {}),
      ...(merged.secret ? { secret: merged.secret } : {}),
    };
    return Object.freeze(row);
  });
}

/** Several names sharing one format: the spec's "a, b, c | AN255 each" rows. */
export function sameFormat(prefix: string, names: readonly string[], format: FieldFormat, overrides?: RowOverrides): RowSpec[] {
  return names.map((name) => [`${prefix}${name}`, format, overrides] as const);
}

/**
 * The rows of one structure under another prefix: shipping.customer.* mirrors customer.*,
 * merchant.billing.* mirrors billing.*. Section and endpoints come from the new defaults; a row
 * that was conditional stays conditional, so the mirrored structure keeps its rules.
 */
export function mirrorRows(
  rows: readonly ParameterRow[],
  from: string,
  defaults: SectionDefaults,
  to: string,
  exclude: (name: string) => boolean = () => false,
): ParameterRow[] {
  return rows
    .filter((row) => row.name.startsWith(from) && !exclude(row.name))
    .map((row) =>
      Object.freeze({
        ...row,
        name: to + row.name.slice(from.length),
        section: defaults.section,
        use: mirroredUse(row.use, defaults.use),
        ...(row.requiredWithin ? { requiredWithin: to + row.requiredWithin.slice(from.length) } : {}),
      }),
    );
}

function mirroredUse(original: EndpointUse, target: EndpointUse): EndpointUse {
  const letter = Object.values(original).includes('C') ? 'C' : 'O';
  const endpoints = Object.keys(target) as Endpoint[];
  return Object.freeze(Object.fromEntries(endpoints.map((endpoint) => [endpoint, letter])));
}
