import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { mayPerform } from '../../domain/access/permissions.js';
import { ROLES, type Role } from '../../domain/access/roles.js';
import { NOT_YOURS_TO_GIVE, roleAssignmentProblem } from '../../domain/people/role-assignment.js';
import { createUser } from '../../operations/people/create-user.js';
import { changeRole, findPerson, listPeople, resetSecondFactor, setDisabled, type ManageResult } from '../../operations/people/manage-users.js';
import { merchantRequiresSecondFactor, setMerchantSecondFactor } from '../../operations/people/merchant-security.js';
import type { StoredUser } from '../../storage/repositories/console-users.js';
import { consoleActor } from '../console-actor.js';
import type { ConsoleUser } from '../console-user.js';
import { formField } from '../form-fields.js';
import { NewPersonPage, PeoplePage, PersonAddedPage } from '../pages/people-pages.js';
import { PersonPage } from '../pages/person-page.js';
import { sendPage } from '../render.js';
import { Layout } from '../pages/layout.js';

/** The roles `viewer` may give a person of `merchantId` (null: an operator; undefined: any). */
function givableRoles(viewer: ConsoleUser, merchantId?: string | null): Role[] {
  if (!mayPerform(viewer.role, 'users.manage')) return [];
  return ROLES.filter((role) => merchantId === undefined
    ? roleAssignmentProblem(viewer, role, role.startsWith('operator-') ? null : (viewer.merchantId ?? 'any')) === undefined
    : roleAssignmentProblem(viewer, role, merchantId) === undefined);
}

function manager(user: ConsoleUser) {
  return { role: user.role, merchantId: user.merchantId, visibility: visibilityOf(user), userId: user.id };
}

const system = (request: FastifyRequest) => request.server.gateway.config.system;

async function showPeople(request: FastifyRequest, reply: FastifyReply, message?: string): Promise<FastifyReply> {
  const user = request.consoleUser!;
  const people = request.server.consoleServices.people;
  const list = await listPeople(people, visibilityOf(user));
  const security = user.merchantId !== null && mayPerform(user.role, 'merchant-security.manage')
    ? { merchantId: user.merchantId, required: await merchantRequiresSecondFactor(people.storage, user.merchantId) }
    : undefined;
  return sendPage(reply, <PeoplePage system={system(request)} user={user} csrfToken={request.consoleCsrfToken} people={list} now={people.clock.now()} mayManage={mayPerform(user.role, 'users.manage')} merchantSecurity={security} message={message} />);
}

async function showPerson(request: FastifyRequest, reply: FastifyReply, person: StoredUser, feedback: { message?: string; error?: string } = {}, status = 200): Promise<FastifyReply> {
  const user = request.consoleUser!;
  const roles = person.id === user.id || roleAssignmentProblem(user, person.role, person.merchantId) ? [] : givableRoles(user, person.merchantId);
  return sendPage(reply, <PersonPage system={system(request)} user={user} csrfToken={request.consoleCsrfToken} person={person} roles={roles} {...feedback} />, status);
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendPage(reply, <Layout title="Not found" user={request.consoleUser} system={system(request)} path={request.url} csrfToken={request.consoleCsrfToken}><p>There is no such person.</p></Layout>, 404);
}

function registerAdding(app: FastifyInstance): void {
  app.get('/console/people/new', { config: { console: 'users.manage' } }, async (request, reply) => {
    const user = request.consoleUser!;
    return sendPage(reply, <NewPersonPage system={system(request)} user={user} csrfToken={request.consoleCsrfToken} roles={givableRoles(user)} />);
  });
  app.post('/console/people/new', { config: { console: 'users.manage' } }, async (request, reply) => {
    const user = request.consoleUser!;
    const values = { email: formField(request, 'email'), role: formField(request, 'role'), merchantId: formField(request, 'merchantId').trim() };
    // A merchant's admin adds people to their own merchant only; an operator names the merchant (or none).
    const merchantId = user.merchantId ?? (values.merchantId === '' ? null : values.merchantId);
    const result = await createUser(request.server.consoleServices.people, consoleActor(request), user, { email: values.email, role: values.role, merchantId });
    if (result.kind === 'refused') {
      return sendPage(reply, <NewPersonPage system={system(request)} user={user} csrfToken={request.consoleCsrfToken} roles={givableRoles(user)} values={values} error={result} />, result.problem === NOT_YOURS_TO_GIVE ? 403 : 400);
    }
    return sendPage(reply, <PersonAddedPage system={system(request)} user={user} csrfToken={request.consoleCsrfToken} email={values.email.trim()} password={result.oneTimePassword!} />, 201);
  });
}

type PersonAction = (request: FastifyRequest, userId: string) => Promise<ManageResult>;

const PERSON_ACTIONS: Readonly<Record<string, { readonly act: PersonAction; readonly done: string }>> = {
  role: { act: (request, id) => changeRole(request.server.consoleServices.people, consoleActor(request), manager(request.consoleUser!), id, formField(request, 'role')), done: 'The role has changed.' },
  disable: { act: (request, id) => setDisabled(request.server.consoleServices.people, consoleActor(request), manager(request.consoleUser!), id, true), done: 'Disabled: every session of this person has ended.' },
  enable: { act: (request, id) => setDisabled(request.server.consoleServices.people, consoleActor(request), manager(request.consoleUser!), id, false), done: 'Enabled again.' },
  'reset-second-factor': { act: (request, id) => resetSecondFactor(request.server.consoleServices.people, consoleActor(request), manager(request.consoleUser!), id), done: 'Two-step sign-in was reset: they set up a new app at the next sign-in.' },
};

function registerPersonActions(app: FastifyInstance): void {
  for (const [name, { act, done }] of Object.entries(PERSON_ACTIONS)) {
    app.post<{ Params: { id: string } }>(`/console/people/:id/${name}`, { config: { console: 'users.manage' } }, async (request, reply) => {
      const result = await act(request, request.params.id);
      if (result.kind === 'not-found') return notFound(request, reply);
      const person = await findPerson(request.server.consoleServices.people.storage, visibilityOf(request.consoleUser!), request.params.id);
      if (!person) return notFound(request, reply);
      if (result.kind === 'refused') return showPerson(request, reply, person, { error: `Not changed: ${result.problem}.` }, 403);
      return showPerson(request, reply, person, { message: done });
    });
  }
}

/** /console/people: who may use the console for the viewer's merchant (or all, for operators). */
export function registerPeople(app: FastifyInstance): void {
  app.get('/console/people', { config: { console: 'users.view' } }, (request, reply) => showPeople(request, reply));
  registerAdding(app);
  app.get<{ Params: { id: string } }>('/console/people/:id', { config: { console: 'users.view' } }, async (request, reply) => {
    const person = await findPerson(request.server.consoleServices.people.storage, visibilityOf(request.consoleUser!), request.params.id);
    return person ? showPerson(request, reply, person) : notFound(request, reply);
  });
  registerPersonActions(app);
  app.post('/console/people/security', { config: { console: 'merchant-security.manage' } }, async (request, reply) => {
    const user = request.consoleUser!;
    const merchantId = user.merchantId ?? formField(request, 'merchantId');
    if (!/^[0-9a-f]{32}$/.test(merchantId)) return notFound(request, reply);
    const required = formField(request, 'required') === 'true';
    if (!(await setMerchantSecondFactor(request.server.consoleServices.people, consoleActor(request), merchantId, required))) return notFound(request, reply);
    return showPeople(request, reply, required ? 'Everyone of this merchant now signs in with an authenticator app.' : 'Two-step sign-in is now each person\'s choice.');
  });
}
