import type { PageProps } from 'waku/router';
import { Link } from 'waku';
import type { Analytics } from '#api/modules/analytics/model.ts';
import { dateTimeFormat } from '#api/lib/intl.ts';
import { DEFAULT_PRESET, RANGE_PRESETS, formatDuration, isDate, presetRange, todayIn } from '#api/modules/analytics/rules.ts';
import { AdminPageHeader } from '#src/components/admin/admin-page-header.tsx';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { ChartFrame, RankBars, TimeBars } from '#src/components/analytics/charts.tsx';
import { DataTable } from '#src/components/analytics/data-table.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { api } from '#src/lib/api.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { formatMoney } from '#api/lib/money.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';
import { cn } from '#src/lib/cn.ts';

/** The range from the URL: ?range=7|30|90, or ?from=…&to=… (custom); the last 30 days otherwise. */
function rangeOf(query: string, today: string): { from: string; to: string; preset: number | null } {
  const params = new URLSearchParams(query);
  const from = params.get('from');
  const to = params.get('to');
  if (from || to) return { from: from ?? '', to: to ?? today, preset: null };
  const days = Number(params.get('range'));
  const preset = (RANGE_PRESETS as readonly number[]).includes(days) ? days : DEFAULT_PRESET;
  return { ...presetRange(preset, today), preset };
}

const shortDate = (iso: string) => dateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
const longDate = (iso: string) => dateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-md border bg-card p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
      {detail ? <dd className="text-xs text-muted-foreground">{detail}</dd> : null}
    </div>
  );
}

function Figures({ a }: { a: Analytics }) {
  const money = (n: number) => formatMoney(n, a.currency);
  const unit = a.bucket === 'day' ? 'day' : 'week (from Monday)';
  const outcomes: [string, number][] = [
    ['Approved', a.requests.approved],
    ['Declined', a.requests.declined],
    ['Cancelled', a.requests.cancelled],
    ['Deleted', a.requests.deleted],
    ['Still open', a.requests.open],
  ];
  return (
    <>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5" data-testid="analytics-summary">
        <Stat label="Credit issued" value={money(a.credit.total)} detail={`${a.credit.credits} credits · bonus ${money(a.credit.bonus)}`} />
        <Stat label="Requests received" value={String(a.requests.received)} />
        <Stat label="Approval rate" value={a.requests.approvalRate === null ? '—' : `${Math.round(a.requests.approvalRate * 100)}%`} detail="approved of those decided" />
        <Stat label="Time to credit" value={formatDuration(a.timeToCredit.medianHours)} detail={`median · 90th percentile ${formatDuration(a.timeToCredit.p90Hours)}`} />
        <Stat label="Failed pushes" value={String(a.credit.failedPushes)} detail="credits the shop has not accepted" />
      </dl>
      <ChartFrame
        id="credit"
        title={`Credit issued per ${unit}`}
        summary={money(a.credit.total)}
        chart={<TimeBars title="Credit issued" points={a.credit.series.map((s) => ({ label: shortDate(s.start), value: s.amount, part: s.bonus }))} format={money} partLabel="Bonus" />}
        table={<DataTable caption={`Credit issued per ${unit}`} columns={[a.bucket === 'day' ? 'Day' : 'Week of', 'Credit', 'Bonus', 'Credits']} rows={a.credit.series.map((s) => [longDate(s.start), money(s.amount), money(s.bonus), s.credits])} />}
      />
      <ChartFrame
        id="requests"
        title={`Requests received per ${unit}`}
        summary={`${a.requests.received} in all`}
        chart={<TimeBars title="Requests received" points={a.requests.series.map((s) => ({ label: shortDate(s.start), value: s.received }))} format={(n) => String(Math.round(n * 10) / 10)} />}
        table={<DataTable caption={`Requests received per ${unit}`} columns={[a.bucket === 'day' ? 'Day' : 'Week of', 'Requests']} rows={a.requests.series.map((s) => [longDate(s.start), s.received])} />}
      />
      <ChartFrame
        id="outcomes"
        title="Outcome of the requests received"
        chart={<RankBars title="Outcome of the requests received" points={outcomes.map(([label, value]) => ({ label, value }))} format={String} empty="No requests in this range." />}
        table={<DataTable caption="Outcome of the requests received" columns={['Outcome', 'Requests']} rows={outcomes} />}
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <ChartFrame
          id="brands"
          title="Top brands by credit"
          chart={<RankBars title="Top brands by credit" points={a.topBrands.map((b) => ({ label: b.name, value: b.credit }))} format={money} empty="No credit in this range." />}
          table={<DataTable caption="Top brands by credit" columns={['Brand', 'Credit', 'Requests']} rows={a.topBrands.map((b) => [b.name, money(b.credit), b.requests])} />}
        />
        <ChartFrame
          id="products"
          title="Top products by credit"
          chart={<RankBars title="Top products by credit" points={a.topProducts.map((b) => ({ label: b.name, value: b.credit }))} format={money} empty="No credit in this range." />}
          table={<DataTable caption="Top products by credit" columns={['Product', 'Credit', 'Requests']} rows={a.topProducts.map((b) => [b.name, money(b.credit), b.requests])} />}
        />
      </div>
    </>
  );
}

export default async function AnalyticsPage({ path, query }: PageProps<'/admin/analytics'>) {
  await requireAdmin(pagePath(path, query));
  const today = todayIn(publicSettings().shopTimeZone);
  const range = rangeOf(query, today);
  const result = await api<Analytics>(`/api/admin/analytics?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`);
  return (
    <>
      <title>Analytics · Admin · SwapPoints</title>
      <div className="flex flex-col gap-5">
        <AdminPageHeader title="Analytics">
          {isDate(range.from) && isDate(range.to) ? `${longDate(range.from)} to ${longDate(range.to)}` : 'Choose a range'} · days in {publicSettings().shopTimeZone}
        </AdminPageHeader>
        <div className="flex flex-col gap-3 rounded-md border bg-card p-4 md:flex-row md:items-end md:justify-between">
          <nav aria-label="Date range" className="flex flex-wrap gap-2">
            {RANGE_PRESETS.map((days) => (
              <Link
                key={days}
                to={`/admin/analytics?range=${days}`}
                aria-current={range.preset === days ? 'page' : undefined}
                className={cn('rounded-md border px-3 py-2 text-sm', range.preset === days ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent')}
              >
                Last {days} days
              </Link>
            ))}
          </nav>
          <form method="get" action="/admin/analytics" className="flex flex-wrap items-end gap-2" aria-label="Custom range">
            <div className="flex flex-col gap-1">
              <Label htmlFor="range-from">From</Label>
              <Input id="range-from" name="from" type="date" defaultValue={range.from} required className="w-40" />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="range-to">To</Label>
              <Input id="range-to" name="to" type="date" defaultValue={range.to} required className="w-40" />
            </div>
            <Button type="submit" variant="outline">
              Show
            </Button>
          </form>
        </div>
        {result.ok && result.data ? <Figures a={result.data} /> : <ErrorAlert fallback="Failed to load analytics" error={serverError(result)} />}
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
