import { Spinner } from '#src/components/ui/spinner.tsx';

/** The loading splash. */
export function Splash() {
  return (
    <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted-foreground">
      <Spinner size="lg" label="" />
      <p className="text-base">Loading your experience...</p>
    </div>
  );
}
