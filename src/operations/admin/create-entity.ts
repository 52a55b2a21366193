import { CARD_NUMBER_CODE, CARD_NUMBER_MESSAGE } from '../../catalogue/card-number-fields.js';
import { containsCardNumber } from '../../domain/card-numbers-in-text.js';
import { controlCharacterProblem } from '../../domain/control-characters.js';
import { newAccessToken } from '../../domain/access-token-form.js';
import { ENTITY_ID_PATTERN, hashAccessToken } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertAccessToken } from '../../storage/repositories/access-tokens.js';
import { findEntity, insertEntity } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface CreateEntityInput {
  readonly name: string;
  /** When given, the new entity is a channel of this merchant. */
  readonly merchantId?: string | undefined;
  /** psp or division: a level above merchants (reconciliation files' PspId and DivisionId). */
  readonly kind?: 'psp' | 'division' | undefined;
  /** A division's PSP; a merchant's division or PSP. */
  readonly parentId?: string | undefined;
}

export interface CreatedEntity {
  readonly entityId: string;
  readonly kind: 'psp' | 'division' | 'merchant' | 'channel';
  readonly accessToken: string;
  readonly tokenId: string;
}

const MAX_NAME_LENGTH = 128;

function nameError(code: string, name: string, message: string): GatewayError {
  // Masked before cut: a cut card number would escape the mask.
  return new GatewayError(code, { parameterErrors: [{ name: 'name', value: maskPanLikeDigits(name).slice(0, MAX_NAME_LENGTH), message }] });
}

/** The name reaches every payment's descriptor: one line, no card number (docs/api.md). */
function checkName(name: string): void {
  if (name.trim().length === 0 || name.length > MAX_NAME_LENGTH) throw nameError('200.300.404', name, `must be 1 to ${MAX_NAME_LENGTH} characters`);
  const control = controlCharacterProblem(name);
  if (control !== undefined) throw nameError('200.300.404', name, control);
  if (containsCardNumber(name)) throw nameError(CARD_NUMBER_CODE, name, CARD_NUMBER_MESSAGE);
}

function merchantNotFound(merchantId: string): GatewayError {
  return new GatewayError('200.300.406', {
    httpStatus: 404,
    parameterErrors: [{ name: 'merchant', value: maskPanLikeDigits(merchantId).slice(0, 64), message: 'no merchant entity has this id' }],
  });
}

type NewKind = CreatedEntity['kind'];

function kindOf(input: CreateEntityInput): NewKind {
  if (input.kind !== undefined && !['psp', 'division'].includes(input.kind)) {
    throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'kind', value: String(input.kind).slice(0, 16), message: 'must be psp or division (or absent)' }] });
  }
  if (input.kind !== undefined && input.merchantId !== undefined) {
    throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'merchant', value: input.merchantId.slice(0, 64), message: 'a psp or division belongs to no merchant' }] });
  }
  return input.kind ?? (input.merchantId === undefined ? 'merchant' : 'channel');
}

/** Which kinds may stand above each kind: a division under a PSP, a merchant under either. */
const PARENT_KINDS: Readonly<Record<NewKind, readonly string[]>> = { psp: [], division: ['psp'], merchant: ['psp', 'division'], channel: [] };

function parentNotFound(kind: NewKind, parentId: string): GatewayError {
  const allowed = PARENT_KINDS[kind];
  const message = allowed.length === 0 ? `a ${kind} has no parent` : `must be the id of a ${allowed.join(' or ')}`;
  return new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name: 'parent', value: maskPanLikeDigits(parentId).slice(0, 64), message }] });
}

/** Creates a PSP, a division, a merchant or a channel with its first access token; the token is returned only here. */
export async function createEntity(deps: OperationDeps, input: CreateEntityInput): Promise<CreatedEntity> {
  checkName(input.name);
  const kind = kindOf(input);
  // A malformed id names no merchant; NUL would not even reach the comparison in PostgreSQL.
  if (input.merchantId !== undefined && !ENTITY_ID_PATTERN.test(input.merchantId)) throw merchantNotFound(input.merchantId);
  if (input.parentId !== undefined && (!ENTITY_ID_PATTERN.test(input.parentId) || PARENT_KINDS[kind].length === 0)) throw parentNotFound(kind, input.parentId);
  const now = deps.clock.now();
  const entityId = deps.ids.id();
  const { tokenId, accessToken } = newAccessToken(deps.ids);
  await deps.storage.transaction(async (tx) => {
    if (input.merchantId !== undefined) {
      const merchant = await findEntity(tx, input.merchantId);
      if (!merchant || merchant.kind !== 'merchant') throw merchantNotFound(input.merchantId);
    }
    if (input.parentId !== undefined) {
      const parent = await findEntity(tx, input.parentId);
      if (!parent || !PARENT_KINDS[kind].includes(parent.kind)) throw parentNotFound(kind, input.parentId);
    }
    await insertEntity(tx, { id: entityId, kind, name: input.name, merchantId: input.merchantId ?? null, parentId: input.parentId ?? null, createdAt: now });
    await insertAccessToken(tx, { id: tokenId, entityId, hash: hashAccessToken(accessToken), createdAt: now, revokedAt: null });
  });
  return { entityId, kind, accessToken, tokenId };
}
