import type * as React from 'react';

import { cn } from '#src/lib/cn.ts';

type AvatarProps = Omit<React.ComponentProps<'span'>, 'children'> & {
  /** Name or email; the first letter is shown. */
  name: string;
  /** Text for screen readers; defaults to `name`. Pass "" when the name is already next to it. */
  label?: string;
};

export function Avatar({ className, name, label = name, ...props }: AvatarProps) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span
      data-slot="avatar"
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground select-none',
        className,
      )}
      {...props}
    >
      <span aria-hidden="true">{initial}</span>
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
