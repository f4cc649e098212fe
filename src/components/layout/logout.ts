/** Ends the session on the server, forgets the stored one, and lands on the sign-in page. */
export async function logout(): Promise<void> {
  try {
    await fetch('/api/auth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  } catch {
    // Offline: the cookie is cleared next time; the stored session goes now.
  }
  window.localStorage.removeItem('user');
  window.location.assign('/email-signin');
}
