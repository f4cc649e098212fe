import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow, ReturnAddress, WarehouseSnapshot } from '#api/db/types.ts';
import { conflict, notFound } from '#api/lib/errors.ts';
import { ownRequestOr404, requestOr404 } from '#api/modules/requests/queries.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import type { RequestShipment } from './model.ts';
import type { SlipContent } from './pdf.ts';
import { bookedShipmentOf, pickupPersonOf, returnParcelView, shipmentView } from './queries.ts';
import { NO_LABEL, NO_RETURN_LABEL, SLIP_NEEDS_APPROVAL } from './rules.ts';

/** The drawing (pdf-lib, qrcode: about 10 MB once loaded, bench:memory) is loaded at the first document asked for. */
const drawing = () => import('./pdf.ts');

/** What the owner and admins read of a request's parcels: their state, the label PDFs, the packing slip. */

type Viewer = { id: string; isAdmin: boolean };

/** The owner's request, or any request for an admin; 404 for anyone else. */
function visibleRequest(ctx: AppContext, viewer: Viewer, id: string | undefined): Promise<ExchangeRequestRow> {
  return viewer.isAdmin ? requestOr404(ctx.db, id) : ownRequestOr404(ctx.db, viewer.id, id);
}

export async function requestShipment(ctx: AppContext, viewer: Viewer, id: string | undefined): Promise<RequestShipment> {
  const request = await visibleRequest(ctx, viewer, id);
  const [row, back, person] = await Promise.all([
    bookedShipmentOf(ctx.db, request.id),
    bookedShipmentOf(ctx.db, request.id, 'outbound'),
    pickupPersonOf(ctx.db, request.user_id),
  ]);
  return {
    labelsOffered: ctx.carrier !== null,
    pickupName: person.name,
    shipment: row ? await shipmentView(ctx.db, ctx.settings.publicUrl, row) : null,
    returnShipment: back ? await returnParcelView(ctx.db, back) : null,
  };
}

function slipOf(request: ExchangeRequestRow, customerName: string | null): SlipContent {
  if (!request.warehouse_snapshot) throw conflict(SLIP_NEEDS_APPROVAL);
  return {
    reference: requestReference(request.id),
    requestId: request.id,
    productName: request.product_name,
    brand: request.brand,
    customerName,
    customerEmail: request.customer_email,
    deliverTo: request.warehouse_snapshot as WarehouseSnapshot,
  };
}

export interface PdfFile {
  bytes: Uint8Array;
  filename: string;
}

export async function labelDocument(ctx: AppContext, viewer: Viewer, id: string | undefined): Promise<PdfFile> {
  const request = await visibleRequest(ctx, viewer, id);
  const shipment = await bookedShipmentOf(ctx.db, request.id);
  if (!shipment) throw notFound(NO_LABEL);
  const bytes = await (await drawing()).labelPdf({
    ...slipOf(request, shipment.pickup_name),
    carrierName: shipment.carrier_name!,
    trackingNumber: shipment.tracking_number!,
    pickup: {
      name: shipment.pickup_name,
      phone: shipment.pickup_phone,
      addressLine1: shipment.pickup_line1,
      addressLine2: shipment.pickup_line2,
      city: shipment.pickup_city,
      state: shipment.pickup_state,
      postalCode: shipment.pickup_postal_code,
    },
    carrierLabel: shipment.label_pdf,
    createdAt: new Date(shipment.created_at),
  });
  return { bytes, filename: `label-${shipment.tracking_number}.pdf` };
}

/** The slip alone, for customers who ship on their own: once approved, since it names the warehouse. */
export async function packingSlipDocument(ctx: AppContext, viewer: Viewer, id: string | undefined): Promise<PdfFile> {
  const request = await visibleRequest(ctx, viewer, id);
  const shipment = await bookedShipmentOf(ctx.db, request.id);
  const reference = requestReference(request.id);
  return { bytes: await (await drawing()).packingSlipPdf(slipOf(request, shipment?.pickup_name ?? null)), filename: `packing-slip-${reference}.pdf` };
}

/** The label of a return booked with the carrier, for the admin to stick on the parcel (admins only: the route says so). */
export async function returnLabelDocument(ctx: AppContext, id: string | undefined): Promise<PdfFile> {
  const request = await requestOr404(ctx.db, id);
  const shipment = await bookedShipmentOf(ctx.db, request.id, 'outbound');
  if (!shipment || !request.warehouse_snapshot || !request.return_address) throw notFound(NO_RETURN_LABEL);
  const bytes = await (await drawing()).returnLabelPdf({
    reference: requestReference(request.id),
    productName: request.product_name,
    brand: request.brand,
    carrierName: shipment.carrier_name!,
    trackingNumber: shipment.tracking_number!,
    from: request.warehouse_snapshot as WarehouseSnapshot,
    to: request.return_address as ReturnAddress,
    carrierLabel: shipment.label_pdf,
    createdAt: new Date(shipment.created_at),
  });
  return { bytes, filename: `return-label-${shipment.tracking_number}.pdf` };
}
