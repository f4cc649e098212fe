import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '#tests/helpers/cli.ts';

/**
 * Feature folders call each other one way (docs/CONVENTIONS.md, "Feature folders call each other
 * one way"): a cycle between api/modules/<a> and api/modules/<b> means one of them owns something
 * of the other. This reads every import (static, dynamic, type-only, re-export) of every file under
 * api/modules and fails on any cycle between folders, naming the files that make it.
 */

const MODULES = join(ROOT, 'api', 'modules');

type Edges = Map<string, Map<string, string[]>>;

/** Every file under `dir`, as a path relative to api/modules. */
function filesOf(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesOf(dir, path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature folder an import specifier in `file` points into, or null for anything else. */
export function featureOf(file: string, specifier: string): string | null {
  const own = file.split('/')[0]!;
  const aliased = /^#api\/modules\/([^/]+)\//.exec(specifier);
  if (aliased) return aliased[1]!;
  if (!specifier.startsWith('.')) return null;
  const parts = file.split('/').slice(0, -1);
  for (const step of specifier.split('/')) {
    if (step === '..') {
      // above api/modules (../../lib/…): not a feature
      if (parts.length === 0) return null;
      parts.pop();
    } else if (step !== '.') parts.push(step);
  }
  return parts.length > 1 ? parts[0]! : own;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Which feature imports which, with the files that do. */
export function featureEdges(files: { path: string; text: string }[]): Edges {
  const edges: Edges = new Map();
  for (const { path, text } of files) {
    const from = path.split('/')[0]!;
    for (const match of text.matchAll(IMPORT)) {
      const to = featureOf(path, match[1] ?? match[2]!);
      if (!to || to === from) continue;
      const targets = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, targets);
      targets.set(to, [...new Set([...(targets.get(to) ?? []), path])]);
    }
  }
  return edges;
}

/** Each cycle between feature folders, once, as `a → b → … → a` with the importing files. */
export function featureCycles(edges: Edges): string[] {
  const cycles = new Map<string, string>();
  const walk = (start: string, at: string, path: string[]) => {
    for (const [next, files] of edges.get(at) ?? []) {
      const via = [...path, `${at} → ${next} (${files.join(', ')})`];
      if (next === start) {
        const members = [start, ...via.slice(0, -1).map((step) => step.split(' → ')[1]!.split(' ')[0]!)];
        cycles.set([...members].sort().join(','), via.join('; '));
      } else if (!path.some((step) => step.startsWith(`${next} →`)) && next > start) walk(start, next, via);
    }
  };
  for (const start of [...edges.keys()].sort()) walk(start, start, []);
  return [...cycles.values()];
}

describe('feature folders under api/modules import each other one way', () => {
  test('no cycle between feature folders, of two folders or more', () => {
    const files = filesOf(MODULES).map((path) => ({ path, text: readFileSync(join(MODULES, path), 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(featureCycles(featureEdges(files))).toEqual([]);
  });

  test('the check sees a mutual import, a longer cycle, a relative path, a type-only import and a re-export', () => {
    const two = featureEdges([
      { path: 'credit/ledger.ts', text: "import { STEPS } from '#api/modules/requests/rules.ts';" },
      { path: 'requests/routes.ts', text: "import type { CreditBody } from '../credit/model.ts';" },
    ]);
    expect(featureCycles(two)).toEqual(['credit → requests (credit/ledger.ts); requests → credit (requests/routes.ts)']);
    const three = featureEdges([
      { path: 'a/x.ts', text: "export { y } from '#api/modules/b/y.ts';" },
      { path: 'b/y.ts', text: "const c = await import('../c/z.ts');" },
      { path: 'c/z.ts', text: "import {\n  x,\n} from '../a/x.ts';" },
      { path: 'c/w.ts', text: "import { lib } from '../../lib/text.ts'; import { own } from './z.ts';" },
    ]);
    expect(featureCycles(three)).toEqual(['a → b (a/x.ts); b → c (b/y.ts); c → a (c/z.ts)']);
    expect(featureCycles(featureEdges([{ path: 'a/x.ts', text: "import { y } from '#api/modules/b/y.ts';" }]))).toEqual([]);
    expect([...(three.get('c')?.keys() ?? [])]).toEqual(['a']);
  });
});
