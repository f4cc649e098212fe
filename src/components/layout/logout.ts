import { apiCall } from '#src/lib/api-client.ts';

/** Ends the session on the server, forgets the stored one, and lands on the sign-in page. */
export async function logout(): Promise<void> {
  // Offline, the cookie stays until the next sign-in; the stored session goes now either way.
  await apiCall('/api/auth/logout', { method: 'POST', body: {} });
  window.localStorage.removeItem('user');
  window.location.assign('/email-signin');
}
