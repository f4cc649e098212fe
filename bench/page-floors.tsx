/**
 * The floor for each page's server render: the page's data-bound component tree rendered by
 * `react-dom/server` directly, in this process, from data fetched once (no session check, no API
 * call, no RSC payload, no layout, no HTTP). A page is on target when it serves at least half as
 * many pages a second as this renders.
 */
import type { ReactElement } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import type { AdminExchangeRequest, AdminExchangeRequestDetail, ExchangeRequest, ExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { RequestDetails as AdminRequestDetails } from '#src/components/admin/request-details.tsx';
import { RequestsTable } from '#src/components/admin/requests-table.tsx';
import { SignInForm } from '#src/components/auth/sign-in-form.tsx';
import { CreditCard } from '#src/components/credit/credit-card.tsx';
import { ExchangeCard } from '#src/components/customer/exchange-card.tsx';
import { RecentExchanges } from '#src/components/customer/recent-exchanges.tsx';
import { NextStepBanner } from '#src/components/customer/next-step.tsx';
import { RequestDetailsTable } from '#src/components/customer/request-details.tsx';
import { EventTimelineCard } from '#src/components/requests/event-timeline.tsx';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { RequestStepper } from '#src/components/requests/request-stepper.tsx';
import { ValuationCard } from '#src/components/valuation/valuation-card.tsx';
import { MarkdownText } from '#src/components/legal/markdown-text.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent } from '#src/components/ui/card.tsx';
import { cpuMsFromStat } from './process-cpu.ts';

const LOCALE = 'en-IN';

const LegalFloor = ({ markdown }: { markdown: string }) => (
  <Card className="mx-auto max-w-3xl">
    <CardContent>
      <MarkdownText markdown={markdown} />
    </CardContent>
  </Card>
);

export interface FloorData {
  credit: { creditAmount: number; currency: string };
  email: string;
  requests: ExchangeRequest[];
  detail: ExchangeRequestDetail;
  adminRequests: AdminExchangeRequest[];
  adminDetail: AdminExchangeRequestDetail;
  /** the terms' and privacy text's Markdown, as the pages render it (legalMarkdown) */
  legal?: { terms: string; privacy: string };
}

/** The data the floors render, read through the API as the pages read it; `read` GETs a path as the customer or the admin. */
export async function readFloorData(read: (path: string, as: 'customer' | 'admin') => Promise<any>, email: string, requestId: string): Promise<FloorData> {
  return {
    credit: await read('/api/shopify/credit', 'customer'),
    email,
    requests: await read('/api/exchange', 'customer'),
    detail: await read(`/api/exchange/${requestId}`, 'customer'),
    adminRequests: await read('/api/admin/exchange-requests?tab=0', 'admin'),
    adminDetail: await read(`/api/admin/exchange-requests/${requestId}`, 'admin'),
  };
}

/**
 * The tree each page of bench:pages renders from its data, by the page's name there. The new-request
 * page has none: it reads no data, and its form needs Waku's router (useRouter), which only exists
 * inside Waku's own render.
 */
export const FLOORS: Record<string, (d: FloorData) => ReactElement> = {
  terms: (d) => <LegalFloor markdown={d.legal!.terms} />,
  privacy: (d) => <LegalFloor markdown={d.legal!.privacy} />,
  'not found': () => (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <p className="text-6xl font-bold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold">Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild>
        <a href="/">Back to Home</a>
      </Button>
    </div>
  ),
  'sign-in': () => <SignInForm registerUrl="https://shop.example/register" shopName="Demo shop" shopBackend="demo" linkLimit={5} />,
  dashboard: (d) => (
    <div>
      <CreditCard amount={d.credit.creditAmount} currency={d.credit.currency} email={d.email} />
      <RecentExchanges requests={d.requests} locale={LOCALE} />
    </div>
  ),
  'my requests': (d) => (
    <div>
      {d.requests.map((r) => (
        <ExchangeCard key={r.id} request={r} locale={LOCALE} />
      ))}
    </div>
  ),
  'request detail': (d) => (
    <div>
      <NextStepBanner
        request={d.detail}
        settings={{ carriers: ['Delhivery', 'Blue Dart'], today: '2026-11-22', shopUrl: 'https://shop.example', shopName: 'Demo shop', supportEmail: 'support@shop.example', creditWithinDays: 3 }}
      />
      <ImageGallery images={d.detail.images} productName={d.detail.productName} />
      <RequestStepper request={d.detail} locale={LOCALE} />
      <RequestDetailsTable request={d.detail} locale={LOCALE} />
      <EventTimelineCard title="Activity" events={d.detail.events} locale={LOCALE} />
    </div>
  ),
  admin: (d) => <RequestsTable requests={d.adminRequests} view={{ tab: 0, q: '', page: 1, pageSize: 10, sort: 'date', order: 'asc' }} locale={LOCALE} caption="Pending" />,
  'admin detail': (d) => (
    <div>
      <ValuationCard request={d.adminDetail} />
      <ImageGallery images={d.adminDetail.images} productName={d.adminDetail.productName} />
      <AdminRequestDetails request={d.adminDetail} locale={LOCALE} />
      <RequestStepper request={d.adminDetail} locale={LOCALE} />
      <EventTimelineCard title="Activity" events={d.adminDetail.events} locale={LOCALE} />
    </div>
  ),
};

async function renderOnce(tree: ReactElement): Promise<number> {
  const stream = await renderToReadableStream(tree);
  await stream.allReady;
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** CPU time of this process's main thread (where every render runs), in ms: /proc/thread-self/stat. */
export const mainThreadCpuMs = () => cpuMsFromStat('/proc/thread-self/stat');

/**
 * Renders per second of a page's floor tree, one after another in this process (warm, ~2 s): of wall
 * time (`rps`) and of the main thread's CPU time (`cpuRps`, which other processes' load moves less).
 */
export async function floorThroughput(name: string, data: FloorData): Promise<{ rps: number; cpuRps: number; bytes: number } | null> {
  const tree = FLOORS[name];
  if (!tree) return null;
  let bytes = 0;
  for (let i = 0; i < 50; i++) bytes = await renderOnce(tree(data));
  let done = 0;
  const t0 = performance.now();
  const cpu0 = mainThreadCpuMs();
  while (performance.now() - t0 < 2_000) {
    await renderOnce(tree(data));
    done += 1;
  }
  const cpuMs = mainThreadCpuMs() - cpu0;
  return { rps: Math.round(done / ((performance.now() - t0) / 1000)), cpuRps: Math.round(done / (cpuMs / 1000)), bytes };
}
