import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';

/**
 * Checks an API answer against the OpenAPI document the app serves (/api/docs/json): the route and
 * method must be documented, the status must be one of its documented answers, and a JSON body must
 * validate against that answer's schema (OpenAPI 3.1 schemas are JSON Schema 2020-12, so Ajv's 2020
 * dialect reads them as they are, `$ref`s into components included). tests/helpers/app.ts runs it on
 * every answer its request() receives, so a route whose answer drifts from its documentation fails
 * the test that called it.
 */

type Json = any;
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => void;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const DOCUMENT_ID = 'openapi.json';
/** The reference page and the document itself: served, not documented (they are not part of the API). */
const DOCUMENTATION_PATHS = new Set(['/api/docs', '/api/docs/json']);

interface Route {
  pattern: RegExp;
  /** literal segments first: /counts before /{id} */
  params: number;
  path: string;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export type AnswerCheck = (method: string, url: string, status: number, contentType: string | null, body: unknown) => string | undefined;

/** Ajv over the whole document, so a schema's `$ref`s into components resolve; `at` compiles (once) the schema at a JSON pointer. */
function documentSchemas(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const at = (ref: string) => {
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${ref}` })));
    return validate;
  };
  return { ajv, at };
}

export function answerChecker(document: Json): AnswerCheck {
  const { ajv, at: validatorAt } = documentSchemas(document);
  const routes: Route[] = Object.keys(document.paths)
    .map((path) => ({
      path,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);

  return (method, url, status, contentType, body) => {
    const pathname = new URL(url).pathname;
    const m = method.toLowerCase();
    if (DOCUMENTATION_PATHS.has(pathname) && m === 'get') return undefined;
    const route = routes.find((r) => r.pattern.test(pathname) && document.paths[r.path][m]);
    const where = `${method} ${pathname} → ${status}`;
    if (!route) {
      // No documented route: only the app's shared refusals (unknown endpoint, cross-site, not JSON) may answer.
      if (!METHODS.includes(m) || status < 400) return `${where}: no documented route answers this`;
      const validate = validatorAt(pointer('components', 'schemas', 'Error'));
      return validate(body) ? undefined : `${where}: the refusal is not { error }: ${ajv.errorsText(validate.errors)}`;
    }
    const responses = document.paths[route.path][m].responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return `${where}: status ${status} is not documented for ${m.toUpperCase()} ${route.path} (documented: ${Object.keys(responses).join(', ')})`;
    const content = responses[key].content as Record<string, Json> | undefined;
    const mediaType = contentType?.split(';')[0]!.trim().toLowerCase() ?? null;
    if (!content) {
      return body === null || body === '' ? undefined : `${where}: the documentation says no body, the answer has ${mediaType ?? 'one'}`;
    }
    const documented = Object.keys(content).find((type) => type === mediaType || (type.endsWith('/*') && mediaType?.startsWith(type.slice(0, -1))));
    if (!documented) return `${where}: answered ${mediaType}, documented ${Object.keys(content).join(', ')}`;
    if (documented !== 'application/json' || !content[documented].schema) return undefined;
    const validate = validatorAt(pointer('paths', route.path, m, 'responses', key, 'content', documented, 'schema'));
    if (validate(body)) return undefined;
    return `${where}: the answer does not match its documented schema: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}\n${JSON.stringify(body).slice(0, 500)}`;
  };
}

const checkers = new Map<string, AnswerCheck>();

/** One checker per distinct document (the test apps of a run serve the same one). */
export function checkerFor(document: Json): AnswerCheck {
  const key = JSON.stringify(document);
  let check = checkers.get(key);
  if (!check) checkers.set(key, (check = answerChecker(document)));
  return check;
}

/**
 * Checks a webhook delivery against the document's `webhooks`: its event type is documented, it
 * carries every documented header, and its body validates against that event's payload schema.
 */
export function deliveryChecker(document: Json): (headers: Record<string, string>, body: string) => string | undefined {
  const { ajv, at } = documentSchemas(document);
  return (headers, body) => {
    const payload = JSON.parse(body);
    const operation = document.webhooks?.[payload.type]?.post;
    if (!operation) return `webhook ${payload.type}: not in the document's webhooks`;
    const missing = operation.parameters.filter((p: Json) => p.in === 'header' && p.required && !headers[p.name.toLowerCase()]).map((p: Json) => p.name);
    if (missing.length > 0) return `webhook ${payload.type}: no ${missing.join(', ')} header`;
    const validate = at(pointer('webhooks', payload.type, 'post', 'requestBody', 'content', 'application/json', 'schema'));
    return validate(payload) ? undefined : `webhook ${payload.type}: the body does not match its documented schema: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
  };
}
