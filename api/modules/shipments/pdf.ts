import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import type { ReturnAddress, WarehouseAddress } from '#api/db/types.ts';
import type { PickupAddress } from '#api/integrations/carriers/types.ts';

/**
 * The label and the packing slip, drawn with pdf-lib in-process. The QR codes are drawn as vector
 * squares from qrcode's module matrix (no image codec), which keeps a label PDF a few kilobytes.
 */

export interface SlipContent {
  reference: string;
  requestId: string;
  productName: string;
  brand: string;
  customerName: string | null;
  customerEmail: string;
  deliverTo: WarehouseAddress;
}

export interface LabelContent extends SlipContent {
  carrierName: string;
  trackingNumber: string;
  pickup: PickupAddress;
  /** the carrier's own label: its pages come first instead of ours */
  carrierLabel: Uint8Array | null;
  createdAt: Date;
}

const A4: [number, number] = [595.28, 841.89];
/** 4 × 6 inches, the courier label size */
const LABEL: [number, number] = [288, 432];
const INK = rgb(0, 0, 0);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The standard fonts know only WinAnsi: anything else (a name in Devanagari) is printed as '?' rather than failing. */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text.replace(/\s+/g, ' ').trim(), (ch) => (known.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

/** Writes lines from `y` down, each cut to fit `width`; returns where the next line goes. */
function lines(page: PDFPage, font: PDFFont, texts: (string | null | undefined)[], x: number, y: number, size: number, width: number): number {
  for (const raw of texts) {
    if (!raw) continue;
    let text = printable(font, raw);
    while (text.length > 1 && font.widthOfTextAtSize(text, size) > width) text = text.slice(0, -2) + '.';
    page.drawText(text, { x, y, size, font, color: INK });
    y -= size * 1.35;
  }
  return y;
}

/** A QR code of `text` as dark squares, `side` points wide, its top-left corner at (x, top). */
function drawQr(page: PDFPage, text: string, x: number, top: number, side: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const cell = side / (modules.size + quiet * 2);
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      // one rectangle per run of dark squares in a row: fewer drawing operators
      page.drawRectangle({ x: x + (quiet + start) * cell, y: top - (quiet + row + 1) * cell, width: (col - start) * cell, height: cell, color: INK });
    }
  }
}

const addressLines = (a: { name: string; addressLine1: string; addressLine2: string | null; city: string; state: string; postalCode: string }) => [
  a.name,
  a.addressLine1,
  a.addressLine2,
  `${a.city}, ${a.state} ${a.postalCode}`,
];

/** What a 4 × 6 label prints, whichever way the parcel goes. */
interface ParcelLabel {
  carrierName: string;
  /** the line under the carrier: 'PREPAID RETURN', 'RETURN TO CUSTOMER' */
  kind: string;
  createdAt: Date;
  trackingNumber: string;
  to: (string | null)[];
  /** where the courier collects it */
  from: (string | null)[];
  footer: string[];
}

function drawLabelPage(doc: PDFDocument, fonts: Fonts, label: ParcelLabel): void {
  const page = doc.addPage(LABEL);
  const [width, height] = LABEL;
  const m = 14;
  const inner = width - 2 * m;
  page.drawRectangle({ x: m / 2, y: m / 2, width: width - m, height: height - m, borderColor: INK, borderWidth: 1.5 });
  let y = height - m - 12;
  y = lines(page, fonts.bold, [label.carrierName], m, y, 13, inner);
  y = lines(page, fonts.regular, [`${label.kind} · ${label.createdAt.toISOString().slice(0, 10)}`], m, y, 8, inner);
  y -= 4;
  y = lines(page, fonts.regular, ['AWB'], m, y, 8, inner);
  y = lines(page, fonts.bold, [label.trackingNumber], m, y, 20, inner);
  drawQr(page, label.trackingNumber, width - m - 84, y + 6, 84);
  y = lines(page, fonts.bold, ['TO'], m, y - 4, 9, inner - 90);
  y = lines(page, fonts.regular, label.to, m, y, 10, inner - 90);
  y -= 8;
  page.drawLine({ start: { x: m, y: y + 6 }, end: { x: width - m, y: y + 6 }, thickness: 0.75, color: INK });
  y = lines(page, fonts.bold, ['FROM (PICKUP)'], m, y - 6, 9, inner);
  y = lines(page, fonts.regular, label.from, m, y, 10, inner);
  y -= 8;
  page.drawLine({ start: { x: m, y: y + 6 }, end: { x: width - m, y: y + 6 }, thickness: 0.75, color: INK });
  lines(page, fonts.regular, label.footer, m, y - 6, 9, inner);
}

function drawSlipPage(doc: PDFDocument, fonts: Fonts, slip: SlipContent): void {
  const page = doc.addPage(A4);
  const [width, height] = A4;
  const m = 56;
  const inner = width - 2 * m;
  let y = height - m;
  y = lines(page, fonts.bold, ['Packing slip'], m, y, 22, inner);
  y = lines(page, fonts.regular, ['Put this page in the box with the item. The warehouse scans the code to find your request.'], m, y - 4, 10, inner);
  const qrTop = y - 10;
  drawQr(page, slip.reference, m, qrTop, 150);
  let ty = lines(page, fonts.regular, ['Reference'], m + 170, qrTop - 30, 10, inner - 170);
  ty = lines(page, fonts.bold, [slip.reference], m + 170, ty, 26, inner - 170);
  lines(page, fonts.regular, [`Request ${slip.requestId}`], m + 170, ty - 4, 8, inner - 170);
  y = qrTop - 170;
  y = lines(page, fonts.bold, ['Item'], m, y, 12, inner);
  y = lines(page, fonts.regular, [slip.productName, `Brand: ${slip.brand}`], m, y, 11, inner);
  y = lines(page, fonts.bold, ['From'], m, y - 10, 12, inner);
  y = lines(page, fonts.regular, [slip.customerName, slip.customerEmail], m, y, 11, inner);
  y = lines(page, fonts.bold, ['Ship to'], m, y - 10, 12, inner);
  lines(page, fonts.regular, [...addressLines(slip.deliverTo), slip.deliverTo.country, slip.deliverTo.contactPerson ? `Attn: ${slip.deliverTo.contactPerson}` : null], m, y, 11, inner);
}

async function newDocument(title: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('SwapPoints');
  doc.setCreator('SwapPoints');
  return { doc, fonts: { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) } };
}

/** A document that starts with the carrier's own label pages when it gave them, else with ours. */
async function labelDocument(title: string, carrierLabel: Uint8Array | null, ours: ParcelLabel): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const { doc, fonts } = await newDocument(title);
  if (carrierLabel) {
    const carrier = await PDFDocument.load(carrierLabel);
    for (const page of await doc.copyPages(carrier, carrier.getPageIndices())) doc.addPage(page);
  } else {
    drawLabelPage(doc, fonts, ours);
  }
  return { doc, fonts };
}

/** The label (the carrier's pages, or ours) followed by the packing slip. */
export async function labelPdf(label: LabelContent): Promise<Uint8Array> {
  const { doc, fonts } = await labelDocument(`Return label ${label.trackingNumber}`, label.carrierLabel, {
    carrierName: label.carrierName,
    kind: 'PREPAID RETURN',
    createdAt: label.createdAt,
    trackingNumber: label.trackingNumber,
    to: [...addressLines(label.deliverTo), label.deliverTo.country, label.deliverTo.contactPhone ? `Phone ${label.deliverTo.contactPhone}` : null],
    from: [...addressLines(label.pickup), `Phone ${label.pickup.phone}`],
    footer: [`Reference ${label.reference}`, `${label.productName} (${label.brand})`],
  });
  drawSlipPage(doc, fonts, label);
  return doc.save();
}

/** A declined offer's item going back: warehouse → the customer's return address. */
export interface ReturnLabelContent {
  reference: string;
  productName: string;
  brand: string;
  carrierName: string;
  trackingNumber: string;
  from: WarehouseAddress;
  to: ReturnAddress;
  carrierLabel: Uint8Array | null;
  createdAt: Date;
}

/** The return's label alone: the carrier's pages, or ours (nothing goes in this box for the warehouse to scan). */
export async function returnLabelPdf(label: ReturnLabelContent): Promise<Uint8Array> {
  const { doc } = await labelDocument(`Return to customer ${label.trackingNumber}`, label.carrierLabel, {
    carrierName: label.carrierName,
    kind: 'RETURN TO CUSTOMER',
    createdAt: label.createdAt,
    trackingNumber: label.trackingNumber,
    to: [...addressLines(label.to), label.to.country, label.to.phone ? `Phone ${label.to.phone}` : null],
    from: [...addressLines(label.from), label.from.contactPhone ? `Phone ${label.from.contactPhone}` : null],
    footer: [`Reference ${label.reference}`, `${label.productName} (${label.brand})`],
  });
  return doc.save();
}

export async function packingSlipPdf(slip: SlipContent): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(`Packing slip ${slip.reference}`);
  drawSlipPage(doc, fonts, slip);
  return doc.save();
}
