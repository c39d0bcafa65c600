import type { SandboxFault, SandboxFaultAction, SandboxFaultCreate } from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation } from '../state/operation';
import type { FaultRecord } from '../state/records';
import { ApiError } from '../support/errors';
import { type FieldErrors, inputShape, readInput, readJsonObject, trimmedString } from '../support/input';
import { formatTimestamp } from '../support/time';
import { isServiceOperation, SERVICE_OPERATIONS } from './routes';

// An account's fault rules, as the control API manages them (`/_sandbox/faults`): what a rule
// may say, checked strictly, since a rule that silently matched nothing would let a test pass
// without the fault it was written for. What a rule does to a request is `fault-injection.ts`.

/** The most rules an account holds: far more than a test needs, bounded so a loop cannot grow it. */
export const MAX_FAULT_RULES = 100;

const FIELDS = [
  'operation',
  'method',
  'path',
  'action',
  'status',
  'retry_after',
  'delay_ms',
  'after_acting',
  'times',
  'probability',
  'seed',
] as const satisfies readonly (keyof SandboxFaultCreate)[];

const ACTIONS: readonly SandboxFaultAction[] = ['status', 'drop', 'delay'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const STATUSES = [429, 500, 502, 503, 504];
/** The longest delay: five minutes, past any client's time-out, short of a stuck test. */
const MAX_DELAY_MS = 300_000;

const FAULT_INPUT = inputShape<SandboxFaultCreate>(
  FIELDS,
  () =>
    Joi.object({
      operation: trimmedString(100),
      method: Joi.string().strict(),
      path: trimmedString(200),
      action: Joi.string().strict().required(),
      status: Joi.number().strict().integer(),
      retry_after: Joi.number().strict().integer().min(0).max(3600),
      delay_ms: Joi.number().strict().integer().min(0).max(MAX_DELAY_MS),
      after_acting: Joi.boolean().strict(),
      times: Joi.number().strict().integer().min(0).max(1_000_000),
      probability: Joi.number().strict().min(0).max(1),
      seed: Joi.number().strict().integer().min(0).max(0xffff_ffff),
    }),
  ['action'],
);

/** `GET /_sandbox/faults`: the account's rules in id order, spent ones included. */
export const listFaults: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: account.faults.map(renderFault) },
});

/**
 * `POST /_sandbox/faults`: adds a rule after the account's others. A field the rule does not
 * have, a match that names no operation of the service API, or a field that does not fit the
 * action is 422 on that field; an account at the limit of rules is 409.
 */
export const createFault: AccountOperation = ({ store, request, account, nowMs }) => {
  const source = readJsonObject(request.body, FIELDS);
  const input = readInput(FAULT_INPUT, source, (value, errors) => {
    for (const key of Object.keys(source)) {
      if (!(FIELDS as readonly string[]).includes(key)) {
        errors.add(key, `The ${key} field is not a field of a fault rule; the fields are ${FIELDS.join(', ')}.`);
      }
    }
    checkAction(value, errors);
    checkMatch(value, errors);
  });
  if (account.faults.length >= MAX_FAULT_RULES) {
    throw new ApiError(409, {
      message: `The account holds ${MAX_FAULT_RULES} fault rules, the most it may: delete those it no longer needs (DELETE /_sandbox/faults/{id}, or DELETE /_sandbox/faults for all).`,
    });
  }
  const seed = input.seed ?? 0;
  const rule = store.addFault(account, {
    operation: input.operation ?? null,
    method: input.method ?? null,
    path: input.path ?? null,
    action: input.action,
    status: input.action === 'status' ? input.status! : null,
    retry_after: input.retry_after ?? (input.status === 429 ? 1 : null),
    delay_ms: input.delay_ms ?? 0,
    after_acting: input.after_acting ?? false,
    times: input.times ?? null,
    probability: input.probability ?? 1,
    seed,
    created_at: formatTimestamp(nowMs),
    operations: matchedOperations(input),
    fired: 0,
    draws: seed,
  });
  return { status: 201, body: { data: renderFault(rule) } };
};

/** `DELETE /_sandbox/faults/{id}`: deletes one rule of the account. */
export const deleteFault: AccountOperation = ({ store, account, id }) => {
  if (!store.removeFault(account, id))
    throw new ApiError(404, { message: `The account has no fault rule ${id}: GET /_sandbox/faults lists its rules.` });
  return { status: 204 };
};

/** `DELETE /_sandbox/faults`: deletes every rule of the account. */
export const clearFaults: AccountOperation = ({ store, account }) => {
  store.clearFaults(account);
  return { status: 204 };
};

/** The control API's `Fault` of a rule. */
function renderFault(rule: FaultRecord): SandboxFault {
  const {
    id,
    operation,
    method,
    path,
    action,
    status,
    retry_after,
    delay_ms,
    after_acting,
    times,
    probability,
    seed,
    fired,
    created_at,
  } = rule;
  return {
    id,
    operation,
    method,
    path,
    action,
    status,
    retry_after,
    delay_ms,
    after_acting,
    times,
    probability,
    seed,
    fired,
    created_at,
  };
}

/** The fields that only some actions take, and the fields those actions need. */
function checkAction(value: Partial<SandboxFaultCreate>, errors: FieldErrors): void {
  const { action, status } = value;
  if (action !== undefined && !ACTIONS.includes(action)) {
    errors.add('action', `The action field must be status, drop or delay; ${String(action)} is none.`);
    return;
  }
  if (status !== undefined && !STATUSES.includes(status)) {
    errors.add('status', `The status field must be 429, 500, 502, 503 or 504; ${status} is none.`);
  }
  if (action === 'status' && status === undefined && !errors.has('status')) {
    errors.add('status', 'The status field is required with the status action: 429, 500, 502, 503 or 504.');
  }
  if (action !== 'status' && action !== undefined && status !== undefined) {
    errors.add('status', `The status field goes with the status action only; a ${action} sends no status.`);
  }
  if (value.retry_after !== undefined && !(action === 'status' && (status === 429 || status === 503))) {
    errors.add(
      'retry_after',
      'The retry after field goes with a 429 or a 503 only, the answers that carry Retry-After.',
    );
  }
  if (action === 'delay' && !value.delay_ms && !errors.has('delay_ms')) {
    errors.add(
      'delay_ms',
      'The delay ms field is required with the delay action: the milliseconds (1 to 300000) to hold the answer back.',
    );
  }
  if (value.after_acting === true && action === 'delay') {
    errors.add(
      'after_acting',
      'The after acting field cannot go with a delay, which holds back an answer but fails nothing: use drop or a status.',
    );
  } else if (value.after_acting === true && status === 429) {
    errors.add(
      'after_acting',
      'The after acting field cannot go with a 429, which says that the service did not act: use 500, 502, 503 or 504, or drop.',
    );
  }
  if (value.times === 0) {
    errors.add(
      'times',
      'The times field must be at least 1: a rule that must not fire is deleted (DELETE /_sandbox/faults/{id}) or given probability 0.',
    );
  }
}

/** `operation`, or `path` and `method`, each naming operations of the service API. */
function checkMatch(value: Partial<SandboxFaultCreate>, errors: FieldErrors): void {
  const { operation, method, path } = value;
  if (operation !== undefined) {
    if (method !== undefined || path !== undefined) {
      errors.add(
        'operation',
        'The operation field names a method and a path already: give operation, or path and method, not both.',
      );
    } else if (!isServiceOperation(operation)) {
      errors.add(
        'operation',
        `The operation field must name an operation of the service API, such as createReceipt; ${operation} is none (control calls are never faulted). The operations are ${SERVICE_OPERATIONS.map((known) => known.operationId).join(', ')}.`,
      );
    }
    return;
  }
  if (method !== undefined && !METHODS.includes(method)) {
    errors.add('method', `The method field must be GET, POST, PUT or DELETE, in capitals; ${method} is none.`);
    return;
  }
  if (path === undefined) return;
  const atPath = SERVICE_OPERATIONS.filter((known) => known.path === path);
  if (atPath.length === 0) {
    const templates = [...new Set(SERVICE_OPERATIONS.map((known) => known.path))].join(', ');
    errors.add(
      'path',
      `The path field must be a path template of openapi.yaml, written without /rest/v1, such as /receipts/{id}; ${path} is none (control calls are never faulted). The templates are ${templates}.`,
    );
  } else if (method !== undefined && !atPath.some((known) => known.method === method)) {
    errors.add(
      'method',
      `The method field and the path field name no operation: ${path} takes ${atPath.map((known) => known.method).join(', ')}.`,
    );
  }
}

/** The operationIds a valid rule acts on. */
function matchedOperations({ operation, method, path }: SandboxFaultCreate): ReadonlySet<string> {
  return new Set(
    SERVICE_OPERATIONS.filter(
      (known) =>
        (operation === undefined || known.operationId === operation) &&
        (method === undefined || known.method === method) &&
        (path === undefined || known.path === path),
    ).map((known) => known.operationId),
  );
}
