import { fileURLToPath } from 'node:url';
import type { AppContext } from '#api/context.ts';
import type { Condition } from '#api/db/types.ts';
import { assignCredit } from '#api/modules/credit/ledger.ts';
import { acceptOffer } from '#api/modules/credit/offer-answer.ts';
import { saveUpload } from '#api/modules/images/service.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import { changeStatus, createRequest, markReceived, submitShipping } from '#api/modules/requests/service.ts';
import { userByEmailOrThrow } from '#api/modules/users/queries.ts';
import { saveSignedInUser } from '#api/modules/users/service.ts';

const IMAGES = fileURLToPath(new URL('./data/images/', import.meta.url));

/** How far along the workflow a demo request is taken: each stage goes through the real services. */
type Stage = 'pending' | 'approved' | 'declined' | 'shipped' | 'received' | 'completed';

interface DemoRequest {
  customer: string;
  productName: string;
  brand: string;
  condition: Condition;
  description: string;
  images: string[];
  stage: Stage;
  feedback?: string;
  credit?: number;
  /** why the credit is below the guide's quote */
  creditReason?: string;
}

const DEMO_REQUESTS: DemoRequest[] = [
  {
    customer: 'asha.rao@example.com',
    productName: 'HP 88A Toner Cartridge',
    brand: 'HP',
    condition: 'good',
    description: 'Original HP CC388A cartridge, about 30% toner left. Printed around 500 pages; no leaks, seal tab removed.',
    images: ['toner-1.jpg', 'toner-2.jpg'],
    stage: 'completed',
    feedback: 'Cartridge checked: genuine, 30% toner. Thank you!',
    credit: 650,
    creditReason: 'About 30% toner left, so it is valued at a third of a full cartridge.',
  },
  {
    customer: 'asha.rao@example.com',
    productName: 'Canon PG-745 Ink Cartridge',
    brand: 'Canon',
    condition: 'like_new',
    description: 'Bought two, used one. Sealed in the original box, expiry date next year.',
    images: ['ink-1.jpg'],
    stage: 'approved',
    feedback: 'Looks good. Please ship it in its box to our Bengaluru hub.',
  },
  {
    customer: 'asha.rao@example.com',
    productName: 'Epson L3110 Printhead',
    brand: 'Epson',
    condition: 'fair',
    description: 'Replaced after the printer fell. Nozzles clear on the last test print; small scratch on the casing.',
    images: ['printhead-1.jpg'],
    stage: 'pending',
  },
  {
    customer: 'meera.iyer@example.com',
    productName: 'Brother DR-2365 Drum Unit',
    brand: 'Brother',
    condition: 'very_good',
    description: 'Drum unit from an HL-L2321D, around 4,000 pages printed. Clean prints, no streaks.',
    images: ['drum-1.jpg'],
    stage: 'shipped',
  },
  {
    customer: 'meera.iyer@example.com',
    productName: 'HP LaserJet Pro Fuser Assembly',
    brand: 'HP',
    condition: 'good',
    description: '230 V fuser from an M404dn, replaced during a service. Working when removed.',
    images: ['fuser-1.jpg'],
    stage: 'received',
  },
  {
    customer: 'vikram.singh@example.com',
    productName: 'Samsung Pickup Roller Kit',
    brand: 'Samsung',
    condition: 'poor',
    description: 'Rollers are worn and glazed; the spring is missing.',
    images: ['roller-1.jpg'],
    stage: 'declined',
    feedback: 'Worn rollers cannot be refurbished, so we cannot offer credit for them. Sorry!',
  },
  {
    customer: 'vikram.singh@example.com',
    productName: 'HP 88A Toner Cartridge',
    brand: 'HP',
    condition: 'new',
    description: 'Unopened, bought one too many for the office.',
    images: ['toner-1.jpg'],
    stage: 'pending',
  },
];

const ORDER: Stage[] = ['pending', 'approved', 'shipped', 'received', 'completed'];
const reached = (stage: Stage, step: Stage) => stage !== 'declined' && ORDER.indexOf(stage) >= ORDER.indexOf(step);

/** Exchange requests in every state of the workflow, made through the same services as the API. Only on a database without requests. */
export async function seedDemoRequests(ctx: AppContext, adminEmail: string): Promise<number> {
  const existing = await ctx.db.selectFrom('exchange_requests').select('id').limit(1).execute();
  if (existing.length > 0) return 0;
  const admin = await userByEmailOrThrow(ctx.db, adminEmail);
  const adminActor = actorOf(admin, 'admin');
  const warehouse = await ctx.db.selectFrom('warehouses').select('id').where('is_active', '=', true).orderBy('name').executeTakeFirstOrThrow();

  for (const demo of DEMO_REQUESTS) {
    // the demo customers' user rows, as their first sign-in would make them
    const user = await saveSignedInUser(ctx.db, demo.customer, await ctx.shop.findCustomer(demo.customer));
    const images = [];
    for (const file of demo.images) {
      const bytes = new Uint8Array(await Bun.file(`${IMAGES}${file}`).arrayBuffer());
      images.push(await saveUpload(ctx, user.id, bytes, 'image/jpeg'));
    }
    const request = await createRequest(ctx, user, { ...demo, images });
    if (demo.stage === 'pending') continue;
    if (demo.stage === 'declined') {
      await changeStatus(ctx, adminActor, request.id, { status: 'declined', adminFeedback: demo.feedback });
      continue;
    }
    await changeStatus(ctx, adminActor, request.id, { status: 'approved', warehouseId: warehouse.id, adminFeedback: demo.feedback });
    if (reached(demo.stage, 'shipped')) {
      await submitShipping(ctx, user, request.id, {
        carrierName: 'Delhivery',
        trackingNumber: `DLV${request.id.slice(0, 8).toUpperCase()}`,
        shippingDate: new Date().toISOString().slice(0, 10),
        notes: 'Packed in bubble wrap.',
      });
    }
    if (reached(demo.stage, 'received')) await markReceived(ctx, adminActor, request.id, { transitStatus: 'received', adminNote: 'Arrived in good order.' });
    // Demo credit is never pushed to a real shop: on Shopify the demo stops at received.
    if (reached(demo.stage, 'completed') && ctx.settings.shopBackend === 'embedded') {
      const credit = await assignCredit(ctx, adminActor, request.id, { creditAmount: demo.credit ?? 100, additionalFeedback: 'Valued after inspection.', reason: demo.creditReason });
      // below the quote the credit is an offer: the demo customer accepted it
      if (!credit.ledger) await acceptOffer(ctx, actorOf(user, 'customer'), request.id, { by: 'customer', userId: user.id });
      await changeStatus(ctx, adminActor, request.id, { status: 'completed' });
    }
  }
  return DEMO_REQUESTS.length;
}
