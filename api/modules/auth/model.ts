import { t, type UnwrapSchema } from 'elysia';
import { INVALID_EMAIL_MESSAGE } from '#api/lib/email.ts';
import { literals, nullable } from '#api/lib/schema.ts';
import { LANGUAGE_INVALID, LANGUAGES, PHONE_INVALID, PHONE_MAX_LENGTH, WHATSAPP_INVALID } from '#api/modules/users/rules.ts';

const email = t.String({ maxLength: 320, error: INVALID_EMAIL_MESSAGE });

export const LoginBody = t.Object(
  {
    email,
    /** where to go after sign-in: a path on this site */
    next: t.Optional(t.String({ maxLength: 2000, error: 'next must be a path on this site' })),
  },
  { error: INVALID_EMAIL_MESSAGE },
);

export const LoginResponse = t.Object({
  sent: t.Literal(true),
  email: t.String(),
  message: t.String(),
});

export const CheckCustomerBody = t.Object({ email }, { error: INVALID_EMAIL_MESSAGE });
export const CheckCustomerResponse = t.Object({ exists: t.Boolean(), shopifyId: t.Union([t.String(), t.Null()]) });

export const VerifyEmailBody = t.Object(
  {
    email: t.Optional(t.String({ maxLength: 320 })),
    token: t.Optional(t.String({ maxLength: 200 })),
    shopifyId: t.Optional(t.Union([t.String({ maxLength: 200 }), t.Null()])),
  },
  { error: 'No email found. Please try signing in again.' },
);

export const UserProfile = t.Object({
  uid: t.String(),
  email: t.String(),
  name: t.Union([t.String(), t.Null()]),
  isAdmin: t.Boolean(),
});

/** The signed-in user with what they set on their profile (GET /api/auth/profile, PUT /api/profile). */
export const ProfileDetails = t.Object({
  ...UserProfile.properties,
  /** E.164, e.g. +919876543210 */
  phone: nullable(t.String()),
  /** opted in to WhatsApp updates at `phone` */
  whatsapp: t.Boolean(),
  language: literals(LANGUAGES),
});

export const ProfileBody = t.Object({
  phone: t.Optional(t.Union([t.String({ maxLength: PHONE_MAX_LENGTH }), t.Null()], { error: PHONE_INVALID, description: 'a 10-digit Indian mobile number (+91 is added) or +country code and number; null or empty removes it (and opts out)' })),
  whatsapp: t.Optional(t.Boolean({ error: WHATSAPP_INVALID, description: 'true opts in to WhatsApp updates (needs a phone), false opts out' })),
  language: t.Optional(literals(LANGUAGES, { error: LANGUAGE_INVALID })),
});

export type ProfileDetails = UnwrapSchema<typeof ProfileDetails>;

export const VerifyEmailResponse = t.Object({
  success: t.Literal(true),
  message: t.String(),
  user: UserProfile,
  userProfile: UserProfile,
  sessionToken: t.String(),
  expiresAt: t.String({ format: 'date-time' }),
  next: t.String(),
});


export type UserProfile = UnwrapSchema<typeof UserProfile>;
export type LoginResponse = UnwrapSchema<typeof LoginResponse>;
export type VerifyEmailResponse = UnwrapSchema<typeof VerifyEmailResponse>;

/** The answer to signing out, whether or not the session was still open. */
export const LoggedOut = t.Object({ success: t.Literal(true) });
