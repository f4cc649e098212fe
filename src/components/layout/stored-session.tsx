'use client';

import { useEffect } from 'react';

/**
 * Keeps localStorage `user` ({uid, email} — never the token, which lives in an httpOnly cookie)
 * in step with the server's view: set while signed in, cleared when signed out or corrupt.
 */
export function StoredSession({ user }: { user: { uid: string; email: string } | null }) {
  useEffect(() => {
    const key = 'user';
    if (!user) {
      window.localStorage.removeItem(key);
      return;
    }
    try {
      const stored = JSON.parse(window.localStorage.getItem(key) ?? 'null') as { uid?: unknown; email?: unknown } | null;
      if (stored && stored.uid === user.uid && stored.email === user.email) return;
    } catch {
      // corrupt: replaced below
    }
    window.localStorage.setItem(key, JSON.stringify({ uid: user.uid, email: user.email }));
  }, [user?.uid, user?.email]);
  return null;
}
