import { ArrowLeft, Search } from 'lucide-react';
import { Link } from 'waku';
import type { PageProps } from 'waku/router';
import type { Campaign, GuideEntry, Minimum, Multiplier, Rule } from '#api/modules/valuation/model.ts';
import { campaignTermsText, wholeMoney } from '#api/modules/valuation/rules.ts';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { pageLocale } from '#src/components/admin/locale.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { ActionButton, CampaignForm, EntryDialog, MinimumForm, MultipliersForm, RuleForm } from '#src/components/admin/valuation-forms.tsx';
import { api } from '#src/lib/api.server.ts';
import { formatDate } from '#src/lib/requests.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

const PAGE_SIZE = 25;

const href = (q: string, page: number) => {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return `/admin/valuation${search ? `?${search}` : ''}`;
};

async function EntriesCard({ q, page, currency }: { q: string; page: number; currency: string }) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (q) params.set('q', q);
  const result = await api<GuideEntry[]>(`/api/admin/valuation/entries?${params}`);
  const total = result.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Guide Entries</CardTitle>
          <CardDescription>The value of a new unit; customers are quoted it times the condition’s multiplier.</CardDescription>
        </div>
        <EntryDialog />
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <form method="get" action="/admin/valuation" role="search" className="flex gap-2">
          <Input name="q" defaultValue={q} placeholder="Search by brand, model or name" aria-label="Search the guide" maxLength={200} />
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" />
            Search
          </Button>
        </form>
        {!result.ok || !result.data ? (
          <ErrorAlert fallback="Failed to load the valuation guide" error={serverError(result)} />
        ) : result.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{q ? `No guide entries match “${q}”.` : 'The guide is empty.'}</p>
        ) : (
          <>
            <div className="overflow-x-auto">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Brand</TableHead>
                    <TableHead>Model</TableHead>
                    <TableHead>Name</TableHead>
                    <TableHead className="text-right">Base value</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {result.data.map((e) => (
                    <TableRow key={e.id} data-testid="guide-entry">
                      <TableCell>{e.brand}</TableCell>
                      <TableCell className="font-mono">{e.model}</TableCell>
                      <TableCell className="min-w-48">{e.name}</TableCell>
                      <TableCell className="text-right">{wholeMoney(e.baseValue, currency)}</TableCell>
                      <TableCell>{e.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}</TableCell>
                      <TableCell className="text-right whitespace-nowrap">
                        <EntryDialog entry={e} />
                        <ActionButton
                          path={`/api/admin/valuation/entries/${e.id}`}
                          method="DELETE"
                          label={`Delete ${e.brand} ${e.model}`}
                          fallback="Failed to delete guide entry"
                          icon="delete"
                          done={`Guide entry ${e.brand} ${e.model} deleted.`}
                          confirm={{ title: `Delete ${e.brand} ${e.model}?`, description: 'New requests for it get no estimate; requests already quoted keep their quote. This cannot be undone.' }}
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            <nav aria-label="Guide pages" className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>{`Showing ${(page - 1) * PAGE_SIZE + 1}-${Math.min(total, page * PAGE_SIZE)} of ${total} entries`}</span>
              <span className="flex gap-2">
                {page > 1 ? <Button asChild size="sm" variant="outline"><Link to={href(q, page - 1)}>Previous</Link></Button> : null}
                {page < pages ? <Button asChild size="sm" variant="outline"><Link to={href(q, page + 1)}>Next</Link></Button> : null}
              </span>
            </nav>
          </>
        )}
      </CardContent>
    </Card>
  );
}

export default async function ValuationPage({ path, query }: PageProps<'/admin/valuation'>) {
  await requireAdmin(pagePath(path, query));
  const params = new URLSearchParams(query);
  const q = (params.get('q') ?? '').slice(0, 200);
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const locale = pageLocale();
  const [multipliers, minimum, rules, campaigns] = await Promise.all([
    api<Multiplier[]>('/api/admin/valuation/multipliers'),
    api<Minimum>('/api/admin/valuation/minimum'),
    api<Rule[]>('/api/admin/valuation/rules'),
    api<Campaign[]>('/api/admin/valuation/campaigns'),
  ]);
  const currency = minimum.data?.currency ?? 'INR';
  return (
    <>
      <title>Valuation · Admin Dashboard · SwapPoints</title>
      <div className="flex flex-col gap-5">
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <Link to="/admin">
            <ArrowLeft aria-hidden="true" />
            Admin Dashboard
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold tracking-tight">Valuation</h1>
        <EntriesCard q={q} page={page} currency={currency} />
        <div className="grid gap-5 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Condition Multipliers</CardTitle>
              <CardDescription>Percent of a new unit’s value, by the condition of the item.</CardDescription>
            </CardHeader>
            <CardContent>
              {multipliers.ok && multipliers.data ? <MultipliersForm multipliers={multipliers.data} /> : <ErrorAlert fallback="Failed to load multipliers" error={serverError(multipliers)} />}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Minimum Value</CardTitle>
              <CardDescription>Items the guide values below this are refused (0: no minimum).</CardDescription>
            </CardHeader>
            <CardContent>
              {minimum.ok && minimum.data ? <MinimumForm minimum={minimum.data.minimumValue} /> : <ErrorAlert fallback="Failed to load the minimum" error={serverError(minimum)} />}
            </CardContent>
          </Card>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Eligibility Rules</CardTitle>
            <CardDescription>Brands, or model patterns of a brand, the shop does not take; customers see the reason.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {rules.ok && rules.data ? (
              rules.data.length === 0 ? (
                <p className="text-sm text-muted-foreground">No rules: every brand is taken.</p>
              ) : (
                <ul className="flex flex-col divide-y">
                  {rules.data.map((r) => (
                    <li key={r.id} data-testid="valuation-rule" className="flex items-center justify-between gap-3 py-2 text-sm">
                      <span>
                        <strong>{r.brand}{r.model ? ` ${r.model}` : ''}</strong>: {r.reason}
                      </span>
                      <ActionButton
                        path={`/api/admin/valuation/rules/${r.id}`}
                        method="DELETE"
                        label={`Delete the rule for ${r.brand}${r.model ? ` ${r.model}` : ''}`}
                        fallback="Failed to delete the rule"
                        icon="delete"
                        done={`Rule for ${r.brand}${r.model ? ` ${r.model}` : ''} deleted: these items can be submitted again.`}
                        confirm={{ title: `Delete the rule for ${r.brand}${r.model ? ` ${r.model}` : ''}?`, description: 'Customers can then submit these items again. This cannot be undone.' }}
                      />
                    </li>
                  ))}
                </ul>
              )
            ) : (
              <ErrorAlert fallback="Failed to load rules" error={serverError(rules)} />
            )}
            <RuleForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Bonus Campaigns</CardTitle>
            <CardDescription>Added to the credit when it is assigned, kept apart in the credit history.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {campaigns.ok && campaigns.data ? (
              campaigns.data.length === 0 ? (
                <p className="text-sm text-muted-foreground">No campaigns.</p>
              ) : (
                <ul className="flex flex-col divide-y">
                  {campaigns.data.map((c) => (
                    <li key={c.id} data-testid="campaign" className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
                      <span className="flex flex-wrap items-center gap-2">
                        <strong>{c.name}</strong>
                        <span>{campaignTermsText(c, currency)}</span>
                        <span className="text-muted-foreground">{c.brand ?? 'all brands'}</span>
                        <span className="text-muted-foreground">
                          {formatDate(c.startsAt, locale)} – {formatDate(new Date(new Date(c.endsAt).getTime() - 1), locale)}
                        </span>
                        {c.running ? <Badge variant="success">Running</Badge> : <Badge variant="secondary">{new Date(c.startsAt) > new Date() ? 'Upcoming' : 'Ended'}</Badge>}
                      </span>
                      {c.running || new Date(c.startsAt) > new Date() ? (
                        <ActionButton path={`/api/admin/valuation/campaigns/${c.id}/end`} method="POST" label="End now" fallback="Failed to end the campaign" done={`Campaign "${c.name}" ended: new quotes and credits no longer get its bonus.`} />
                      ) : null}
                    </li>
                  ))}
                </ul>
              )
            ) : (
              <ErrorAlert fallback="Failed to load campaigns" error={serverError(campaigns)} />
            )}
            <CampaignForm timeZone={publicSettings().shopTimeZone} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
