import { openapi, toOpenAPISchema } from '@elysiajs/openapi';
import { Elysia, type AnyElysia } from 'elysia';

/**
 * The OpenAPI document served at /api/docs/json, finished from what @elysiajs/openapi reads off the
 * routes: the schemas lose our validation messages (kept as `x-error`), every operation says how it
 * is authorised and which refusals it can answer with `{ error }`, request bodies are JSON only (the
 * request guard refuses anything else), and the document names its server, tags and webhooks.
 */

/** A signed-in route: the session token as `Authorization: Bearer`, or the session cookie. */
export const SIGNED_IN: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];
/** A route anyone may call. */
export const PUBLIC: never[] = [];

export const ERROR_SCHEMA_NAME = 'Error';
const ERROR_REF = { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` };
const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every expected failure: a sentence for people, sometimes with more fields (for example `requestId`).',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: true,
  examples: [{ error: 'Please sign in to continue.' }, { error: 'Something went wrong on our side. Please try again later.', requestId: '3f1c2b7e-9a41-4d2c-8e6f-0b5d7a9c1e23' }],
};

/** What each refusal means, for the statuses the whole API shares. */
const STATUS_TEXT: Record<string, string> = {
  '200': 'Done.',
  '201': 'Created.',
  '202': 'Accepted.',
  '304': 'Not modified since the ETag the client holds.',
  '400': 'The input is not valid: `error` says which field and why.',
  '401': 'No session, or it has ended: sign in again.',
  '403': 'Not allowed: an admin-only route, or a change sent from another site.',
  '404': 'Not found, or not yours to see.',
  '409': 'Not possible in the current state.',
  '410': 'The link has expired or was already used.',
  '413': 'Too large.',
  '415': 'The body is not JSON (`Content-Type: application/json`).',
  '422': 'Understood but refused (for example: not a customer of the shop).',
  '429': 'Too many tries: wait a little (`Retry-After`).',
  '502': 'The shop answered with an error.',
  '503': 'The database (or a store behind it) is unavailable for now: try again shortly.',
  '504': 'The shop did not answer in time.',
};

const UNSAFE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
/** Keys whose values are data, not schemas: never rewritten. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);
type Json = any;

/**
 * Our TypeBox schemas carry `error: '…'` (the message a refused input gets). That keyword is ours,
 * not JSON Schema's: in the document it becomes the extension `x-error`. Elysia's coercion of query
 * numbers and booleans (`anyOf: [{ type: 'string', format: 'integer', default: 0 }, …]`) is an
 * implementation detail and leaves, so a client sends plain numbers and booleans.
 */
export function cleanSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYS.has(key)) out[key] = value;
    else if (key === 'error' && typeof value === 'string') out['x-error'] = value;
    else out[key] = cleanSchema(value);
  }
  // The generator folds `nullable(literals(…))` into `type: [string, null]` with an enum that forgot null.
  if (Array.isArray(out.type) && out.type.includes('null') && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (Array.isArray(out.anyOf)) {
    const kept = out.anyOf.filter((s: Json) => !(s?.type === 'string' && ['integer', 'number', 'boolean', 'numeric'].includes(s.format)));
    if (kept.length === 1 && kept.length < out.anyOf.length) {
      const { anyOf: _, ...rest } = out;
      return { ...rest, ...kept[0] };
    }
    out.anyOf = kept;
  }
  return out;
}

const isErrorBody = (schema: Json) =>
  schema?.type === 'object' && schema.additionalProperties === true && Object.keys(schema.properties ?? {}).join() === 'error' && schema.properties.error.type === 'string';

export const errorAnswer = (status: string) => ({ description: STATUS_TEXT[status] ?? 'Refused.', content: { 'application/json': { schema: ERROR_REF } } });

function finishOperation(path: string, method: string, operation: Json): Json {
  const op = cleanSchema(operation);
  const isApi = path.startsWith('/api/');
  op.security ??= PUBLIC;
  // getApiAdminCredit-historyExport.csv → getApiAdminCreditHistoryExportCsv: a name every client generator can use
  if (op.operationId) op.operationId = op.operationId.replace(/[^A-Za-z0-9]+(\w)/g, (_: string, c: string) => c.toUpperCase());
  const json = op.requestBody?.content?.['application/json'];
  if (isApi && json) op.requestBody.content = { 'application/json': json };
  const responses: Json = { ...op.responses };
  for (const [status, answer] of Object.entries<Json>(responses)) {
    if (answer.description?.startsWith('Response for status')) answer.description = STATUS_TEXT[status] ?? answer.description;
    // A text answer names its media type with contentMediaType (the generator says text/plain).
    const text = answer.content?.['text/plain']?.schema;
    if (text?.contentMediaType) answer.content = { [text.contentMediaType]: { schema: text } };
    const schema = answer.content?.['application/json']?.schema;
    if (isErrorBody(schema)) responses[status] = errorAnswer(status);
  }
  // A paged list (listAnswer in paging.ts) gives its total in X-Total-Count.
  const names = new Set((op.parameters ?? []).map((p: Json) => p.name));
  if (names.has('page') && names.has('pageSize') && responses['200']) {
    responses['200'].headers = { 'X-Total-Count': { description: 'How many items match, on every page.', schema: { type: 'integer', minimum: 0 }, example: 42 } };
  }
  const add = (status: string) => (responses[status] ??= errorAnswer(status));
  if (op.parameters?.length || op.requestBody) add('400');
  if (op.security.length > 0) add('401');
  if (UNSAFE_METHODS.has(method)) add('403');
  if (isApi && UNSAFE_METHODS.has(method)) add('415');
  add('503');
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return op;
}

export interface DocumentOptions {
  info: { title: string; version: string; description: string };
  publicUrl: string;
  /** the session cookie's name (it depends on PUBLIC_URL's scheme) */
  cookieName: string;
  tags: { name: string; description: string }[];
  webhooks: Json;
}

/** Builds the document from every route the app serves; call it once the routes are all mounted. */
export function apiDocument(app: AnyElysia, options: DocumentOptions): Json {
  const generated = toOpenAPISchema(app, { staticFile: false }, undefined, undefined, '3.1.2') as { paths: Json; components: { schemas: Json } };
  const paths: Json = {};
  for (const [path, operations] of Object.entries<Json>(generated.paths)) {
    paths[path] = Object.fromEntries(Object.entries<Json>(operations).map(([method, op]) => [method, finishOperation(path, method, op)]));
  }
  return {
    openapi: '3.1.2',
    info: options.info,
    servers: [{ url: options.publicUrl, description: 'This SwapPoints server (PUBLIC_URL)' }],
    tags: options.tags,
    paths,
    webhooks: cleanSchema(options.webhooks),
    components: {
      schemas: { ...cleanSchema(generated.components.schemas), [ERROR_SCHEMA_NAME]: ERROR_SCHEMA },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The `sessionToken` from POST /api/auth/verify-email.' },
        session: { type: 'apiKey', in: 'cookie', name: options.cookieName, description: 'The session cookie the sign-in sets (browsers); a change must come from our own pages.' },
      },
    },
  };
}

/**
 * The reference page at `/docs` (from @elysiajs/openapi) and the finished document at `/docs/json`,
 * built once on first request. The plugin serves its own unfinished `/docs/json`; ours is
 * registered after it and replaces it (tests/api/openapi.test.ts reads the served document).
 */
export function openapiDocs(options: DocumentOptions) {
  // kept as its JSON text: a fraction of the memory of the object tree, and no serialising per request
  let document: string | undefined;
  const docs: AnyElysia = new Elysia();
  return docs
    .use(openapi({ path: '/docs', specPath: '/docs/json', documentation: { info: options.info } }))
    .get('/docs/json', () => new Response((document ??= JSON.stringify(apiDocument(docs, options))), { headers: { 'content-type': 'application/json' } }), {
      detail: { hide: true },
    });
}
