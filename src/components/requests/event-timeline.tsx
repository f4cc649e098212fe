import type { RequestEvent } from '#api/modules/requests/model.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { eventActor, formatDateTime } from '#src/lib/requests.ts';
import { eventLabel } from '#api/modules/requests/rules.ts';

/** A request's history, oldest first: what happened, who did it, when, and any note. */
export function EventTimeline({ events, locale }: { events: RequestEvent[]; locale: string }) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">No activity yet.</p>;
  return (
    <ol className="relative flex flex-col gap-5 border-l-2 border-border pl-5" data-testid="event-timeline">
      {events.map((event) => (
        <li key={event.id} className="relative">
          <span aria-hidden="true" className="absolute top-1.5 -left-[27px] size-3 rounded-full border-2 border-card bg-primary" />
          <p className="text-sm font-medium">{eventLabel(event.type, event.fromStatus)}</p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={event.createdAt}>{formatDateTime(event.createdAt, locale)}</time> · {eventActor(event)}
          </p>
          {event.note ? <p className="mt-1 text-sm break-words whitespace-pre-line">{event.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}

/** The timeline in a card of its own: 'Timeline' on the customer's request page, 'Activity' on the admin's. */
export function EventTimelineCard({ title, events, locale }: { title: string; events: RequestEvent[]; locale: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <EventTimeline events={events} locale={locale} />
      </CardContent>
    </Card>
  );
}
