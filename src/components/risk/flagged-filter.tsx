import { Flag } from 'lucide-react';
import { Link } from 'waku';
import { adminHref, type AdminView } from '#src/components/admin/admin-url.ts';

/**
 * The queue's Flagged filter: a link that keeps only the requests with a risk flag (a photo also
 * used in another customer's request) in this tab, and one back to all of them. A link, so it
 * works before hydration and the filtered view can be bookmarked.
 */
export function FlaggedFilter({ view }: { view: AdminView }) {
  const to = adminHref({ ...view, page: 1, flagged: !view.flagged });
  return (
    <Link to={to} className="inline-flex min-h-9 items-center gap-1.5 text-sm text-primary underline-offset-4 hover:underline" data-testid="flagged-filter">
      <Flag aria-hidden="true" className="size-4" />
      {view.flagged ? 'Show all requests' : 'Show flagged requests only'}
    </Link>
  );
}
