/**
 * Whether a path is one of Waku's page or API routes, by the rule Waku's router matches with:
 * `getPathMapping` in waku/dist/lib/utils/path.js (0.27.5, MIT), which the package does not export,
 * ported line for line as a yes or no. Empty segments are ignored, a literal matches itself, a
 * group ([id]) any one segment, a wildcard ([...rest]) the segments between the literals around it.
 * Where Waku throws (a wildcard it cannot place) this says yes: such a path is not a plain 404.
 * The edge serves its stored not-found page to a path no route matches (api/http/static-pages.ts).
 */
export interface PathSegment {
  type: 'literal' | 'group' | 'wildcard';
  name?: string;
}

export function matchesRoute(spec: readonly PathSegment[], pathname: string): boolean {
  const actual = pathname.split('/').filter(Boolean);
  if (spec.length > actual.length && (!spec.some((s) => s.type === 'wildcard') || actual.length > 0)) return false;
  let wildcardStart = -1;
  for (let i = 0; i < spec.length; i++) {
    const { type, name } = spec[i]!;
    if (type === 'literal' && name !== actual[i]) return false;
    if (type === 'wildcard') {
      wildcardStart = i;
      break;
    }
  }
  if (wildcardStart === -1) return spec.length === actual.length;
  if (wildcardStart === 0 && actual.length === 0) return true;
  for (let i = 0; i < spec.length; i++) {
    const { type, name } = spec[spec.length - i - 1]!;
    if (type === 'literal' && name !== actual[actual.length - i - 1]) return false;
    if (type === 'wildcard') return true;
  }
  return false;
}
