import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
// Waku's own matcher, which its package does not export (read from its file to compare against)
import { getPathMapping } from '../../node_modules/waku/dist/lib/utils/path.js';
import { matchesRoute, type PathSegment } from '#src/lib/route-match.ts';

const segment = fc.oneof(
  fc.constantFrom('a', 'b', 'exchange').map((name): PathSegment => ({ type: 'literal', name })),
  fc.constant<PathSegment>({ type: 'group', name: 'id' }),
);
/** A route as Waku's router holds it: literals and groups, with at most one wildcard. */
const route = fc.tuple(fc.array(segment, { maxLength: 4 }), fc.boolean(), fc.nat(4)).map(([segments, wildcard, at]) =>
  wildcard ? [...segments.slice(0, at), { type: 'wildcard', name: 'rest' } as PathSegment, ...segments.slice(at)] : segments,
);
const pathname = fc.array(fc.constantFrom('a', 'b', 'exchange', '12', ''), { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);

describe('a path matches a route exactly when Waku would route it there (src/lib/route-match.ts)', () => {
  test('the pages of this app', () => {
    const spec = (path: string): PathSegment[] => path.split('/').filter(Boolean).map((name) => (name.startsWith('[') ? { type: 'group', name: name.slice(1, -1) } : { type: 'literal', name }));
    expect(matchesRoute(spec('/exchange/[id]'), '/exchange/12')).toBe(true);
    expect(matchesRoute(spec('/exchange/[id]'), '/exchange/12/more')).toBe(false);
    expect(matchesRoute(spec('/terms'), '/terms/')).toBe(true);
    expect(matchesRoute(spec('/'), '/')).toBe(true);
    expect(matchesRoute(spec('/'), '/terms')).toBe(false);
  });

  test('for any route and path, the same answer as Waku’s getPathMapping (which throws on a wildcard it cannot place: no 404 either)', () => {
    const routedByWaku = (spec: PathSegment[], path: string) => {
      try {
        return getPathMapping(spec as never, path) !== null;
      } catch {
        return true;
      }
    };
    fc.assert(
      fc.property(route, pathname, (spec, path) => {
        expect(matchesRoute(spec, path)).toBe(routedByWaku(spec, path));
      }),
      { numRuns: 5000 },
    );
  });
});
