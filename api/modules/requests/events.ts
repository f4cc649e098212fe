import type { Db } from '#api/db/connect.ts';
import { compiledOnce } from '#api/db/prepared.ts';
import type { EventType } from '#api/db/types.ts';
import type { RequestEvent } from './model.ts';
import { toRequestEvent } from './serialize.ts';

/** Who made a change: a signed-in user acting as customer or admin, or the system (CLI, jobs). */
export interface Actor {
  id: string | null;
  email: string | null;
  role: 'customer' | 'admin' | 'system';
}

export const systemActor: Actor = { id: null, email: null, role: 'system' };

export function actorOf(user: { id: string; email: string }, role: 'customer' | 'admin'): Actor {
  return { id: user.id, email: user.email, role };
}

export interface NewEvent {
  requestId: string;
  type: EventType;
  actor: Actor;
  fromStatus?: string | null;
  toStatus?: string | null;
  note?: string | null;
}

/** Appends one entry to a request's timeline. Call it with the transaction that makes the change. */
export async function recordEvent(trx: Db, event: NewEvent): Promise<void> {
  await trx
    .insertInto('request_events')
    .values({
      request_id: event.requestId,
      type: event.type,
      actor_id: event.actor.id,
      actor_email: event.actor.email,
      actor_role: event.actor.role,
      from_status: event.fromStatus ?? null,
      to_status: event.toStatus ?? null,
      note: event.note ?? null,
    })
    .execute();
}

// every column, so compiled once but not prepared (prepared.ts)
const timeline = compiledOnce(['requestId'], (db, p) => db.selectFrom('request_events').selectAll().where('request_id', '=', p.requestId).orderBy('id'));

/** A request's timeline, oldest first. It outlives the request: a deleted request's history stays. */
export async function eventsOf(db: Db, requestId: string, viewer: 'customer' | 'admin' = 'admin'): Promise<RequestEvent[]> {
  const rows = await timeline(db, { requestId });
  return rows.map((row) => toRequestEvent(row, viewer));
}
