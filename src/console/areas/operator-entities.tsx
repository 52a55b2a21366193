import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { createEntityAsOperator, listOperatorEntities, loadEntityDetail } from '../../operations/operator/entities.js';
import { changeEntitySetting, ENTITY_SETTINGS, SETTING_FIELD, type EntitySetting, type EntitySettingDeps } from '../../operations/operator/entity-settings.js';
import { GatewayError } from '../../results/gateway-error.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal, sendSecretPage } from '../pages/developers/developer-request.js';
import { EntityDetailPage } from '../pages/operator/entity-detail-page.js';
import { ENTITIES, EntitiesPage, EntityCreatedPage, type FormErrors } from '../pages/operator/entities-pages.js';
import { sendPage } from '../render.js';
import '../route-config.js';

type EntityParams = { Params: { entityId: string } };

/**
 * A refusal of a form the page can show field by field. `notFoundToo`: a form whose fields name
 * other things (the merchant of a new channel) shows "no such merchant" next to the field as well.
 */
export function fieldRefusal(error: unknown, notFoundToo = false): GatewayError | undefined {
  if (!(error instanceof GatewayError) || (error.parameterErrors?.length ?? 0) === 0) return undefined;
  return error.httpStatus !== 404 || notFoundToo ? error : undefined;
}

/** The refusal's messages by field, with what was typed (masked: a card number typed by mistake is never echoed). */
export function formErrorsOf(error: GatewayError, typed: Readonly<Record<string, string>>, fieldName: (name: string) => string = (name) => name): FormErrors {
  const fields: Record<string, string> = {};
  for (const p of error.parameterErrors ?? []) fields[fieldName(p.name)] ??= p.message;
  const values = Object.fromEntries(Object.entries(typed).map(([name, value]) => [name, maskPanLikeDigits(value)]));
  return { fields, values };
}

function settingDeps(request: FastifyRequest): EntitySettingDeps {
  const gateway = request.server.gateway;
  return {
    storage: gateway.storage, clock: gateway.clock,
    forget: { principal: (id) => gateway.principals.forgetEntity(id), settings: (id) => gateway.principals.forgetEntitySettings(id), threeDSecure: (id) => gateway.payments.threeDSecureSettings.forget(id) },
  };
}

async function createFromForm(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  const typed = { name: fieldOf(request.body, 'name'), merchant: fieldOf(request.body, 'merchant'), parent: fieldOf(request.body, 'parent') };
  const input = { name: typed.name, merchantId: typed.merchant || undefined, parentId: typed.parent || undefined };
  try {
    const created = await createEntityAsOperator(gateway, consoleActor(request), input);
    return sendSecretPage(reply, <EntityCreatedPage frame={frameOf(request, ENTITIES)} created={created} name={input.name} />);
  } catch (error) {
    const refused = fieldRefusal(error, true);
    if (!refused) return sendRefusal(request, reply, error, { href: ENTITIES, label: 'Back to the merchants and channels' });
    const entities = await listOperatorEntities(gateway.storage);
    return sendPage(reply, <EntitiesPage frame={frameOf(request, ENTITIES)} entities={entities} errors={formErrorsOf(refused, typed)} />, refused.httpStatus);
  }
}

async function changeSetting(request: FastifyRequest<EntityParams>, reply: FastifyReply, setting: EntitySetting): Promise<FastifyReply> {
  const { entityId } = request.params;
  const value = fieldOf(request.body, SETTING_FIELD[setting]);
  try {
    await changeEntitySetting(settingDeps(request), consoleActor(request), entityId, setting, value);
    return reply.redirect(`${ENTITIES}/${entityId}?done=${setting}`, 303);
  } catch (error) {
    const refused = fieldRefusal(error);
    if (!refused) return sendRefusal(request, reply, error, { href: ENTITIES, label: 'Back to the merchants and channels' });
    const detail = await loadEntityDetail(request.server.gateway.storage, entityId);
    const message = refused.parameterErrors![0]!.message;
    return sendPage(reply, <EntityDetailPage frame={frameOf(request, ENTITIES)} detail={detail} error={{ setting, message, value: maskPanLikeDigits(value) }} />, refused.httpStatus);
  }
}

/**
 * Merchants and channels (issue 32, operators only): the list with each entity's settings, create
 * (the first access token shown once), and each setting changed through the admin API's operation
 * with the same audit entry. A refused value comes back next to its field.
 */
export function registerOperatorEntities(app: FastifyInstance): void {
  const view = { config: { console: 'entities.view' as const } };
  const manage = { config: { console: 'entities.manage' as const } };
  const back = { href: ENTITIES, label: 'Back to the merchants and channels' };
  app.get(ENTITIES, view, async (request, reply) => sendPage(reply, <EntitiesPage frame={frameOf(request, ENTITIES)} entities={await listOperatorEntities(request.server.gateway.storage)} />));
  app.get<EntityParams>(`${ENTITIES}/:entityId`, view, async (request, reply) => {
    try {
      const detail = await loadEntityDetail(request.server.gateway.storage, request.params.entityId);
      return sendPage(reply, <EntityDetailPage frame={frameOf(request, ENTITIES)} detail={detail} done={fieldOf(request.query, 'done') || undefined} />);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
  app.post(ENTITIES, manage, createFromForm);
  for (const setting of ENTITY_SETTINGS) {
    app.post<EntityParams>(`${ENTITIES}/:entityId/${setting}`, manage, (request, reply) => changeSetting(request, reply, setting));
  }
}
