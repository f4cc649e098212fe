import type * as React from 'react';

import { fieldClassName } from '#src/components/ui/input.tsx';
import { cn } from '#src/lib/cn.ts';

type NativeSelectProps = React.ComponentProps<'select'> & {
  /** Classes for the wrapper, which sets the width (full width by default: `wrapperClassName="w-48"`). */
  wrapperClassName?: string;
};

/**
 * A styled native <select>: works without client JS, on every device, with the platform's own
 * accessible picker. Children are <option>/<optgroup> (or NativeSelectOption).
 */
export function NativeSelect({ className, wrapperClassName, ...props }: NativeSelectProps) {
  return (
    <div
      data-slot="native-select-wrapper"
      className={cn('relative w-full has-[select:disabled]:opacity-60', wrapperClassName)}
    >
      <select
        data-slot="native-select"
        className={cn(fieldClassName, 'h-9 cursor-pointer appearance-none py-1 pr-9 pl-3', className)}
        {...props}
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      >
        <path d="m6 9 6 6 6-6" />
      </svg>
    </div>
  );
}

export function NativeSelectOption(props: React.ComponentProps<'option'>) {
  return <option data-slot="native-select-option" {...props} />;
}
