import { t } from 'elysia';

export const ChallengeQuery = t.Object({
  'hub.mode': t.Optional(t.String({ maxLength: 50 })),
  'hub.verify_token': t.Optional(t.String({ maxLength: 500 })),
  'hub.challenge': t.Optional(t.String({ maxLength: 500 })),
});

export const NotificationAnswer = t.Object({
  /** delivery statuses that moved a message forward */
  statuses: t.Integer(),
  /** customers opted out by a STOP reply */
  optedOut: t.Integer(),
});
