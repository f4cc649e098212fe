import type { RequestEvent } from '#api/modules/requests/model.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { t } from '#src/i18n/t.ts';
import { eventActor, eventNote, eventTitle, formatDateTime } from '#src/lib/requests.ts';

/** A request's history, oldest first: what happened, who did it, when, and any note (in `lang`; English on the admin's page). */
export function EventTimeline({ events, locale, lang = 'en' }: { events: RequestEvent[]; locale: string; lang?: Language }) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">{t(lang, 'event.none')}</p>;
  return (
    <ol className="relative flex flex-col gap-5 border-l-2 border-border pl-5" data-testid="event-timeline">
      {events.map((event) => {
        const note = eventNote(event, lang);
        return (
          <li key={event.id} className="relative">
            <span aria-hidden="true" className="absolute top-1.5 -left-[27px] size-3 rounded-full border-2 border-card bg-primary" />
            <p className="text-sm font-medium">{eventTitle(event.type, event.fromStatus, lang)}</p>
            <p className="text-xs text-muted-foreground">
              <time dateTime={event.createdAt}>{formatDateTime(event.createdAt, locale)}</time> · {eventActor(event, lang)}
            </p>
            {note ? <p className="mt-1 text-sm break-words whitespace-pre-line">{note}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The timeline in a card of its own: 'Timeline' on the customer's request page, 'Activity' on the admin's. */
export function EventTimelineCard({ title, events, locale, lang }: { title: string; events: RequestEvent[]; locale: string; lang?: Language }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <EventTimeline events={events} locale={locale} lang={lang} />
      </CardContent>
    </Card>
  );
}
