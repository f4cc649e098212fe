'use client';

import type { ComponentProps } from 'react';
import { Link, useRouter } from 'waku';

type LinkProps = ComponentProps<typeof Link>;

/** A header link that marks the page you are on (aria-current="page", styled by `aria-[current=page]:`). */
export function NavLink({ to, ...props }: LinkProps) {
  const { path } = useRouter();
  const current = path === to || (to !== '/' && path.startsWith(`${to}/`));
  return <Link to={to} aria-current={current ? 'page' : undefined} {...props} />;
}
