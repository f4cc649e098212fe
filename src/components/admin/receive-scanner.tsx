'use client';

import { Camera, PackageCheck, ScanLine } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'waku';
import type { ReceivedRequest } from '#api/modules/requests/model.ts';
import { conditionLabel, RECEIVE_CODE_MAX } from '#api/modules/requests/rules.ts';
import { flash } from '#src/components/common/flash.tsx';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { apiCall } from '#src/lib/api-client.ts';

const RECEIVE_FAILED = 'Failed to receive the parcel';

type Outcome = { ok: true; code: string; request: ReceivedRequest } | { ok: false; code: string; error: string };

/** BarcodeDetector is not in TypeScript's DOM types yet; only what the camera scan uses. */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options?: { formats?: string[] }) => Detector;

/**
 * Admin → Receive: one input a USB scanner types into (it ends with Enter, which submits), the
 * request it received shown for inspection, and the focus back in the input for the next parcel.
 * Where the browser has BarcodeDetector, a camera scan fills the same input.
 */
export function ReceiveScanner() {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [camera, setCamera] = useState<DetectorClass | null>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);

  useEffect(() => {
    const found = (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
    if (found) setCamera(() => found);
    return () => stream.current?.getTracks().forEach((track) => track.stop());
  }, []);

  // The field is emptied as a code is sent, not when its answer comes: a scanner's next parcel may be
  // typed in meanwhile, and is neither lost nor mixed with the last one.
  async function receive(raw: string) {
    const code = raw.trim();
    if (!code) return;
    setBusy((n) => n + 1);
    const result = await apiCall<ReceivedRequest>('/api/admin/receive', { method: 'POST', body: { code } });
    setBusy((n) => n - 1);
    if (result.ok && result.data) {
      setOutcome({ ok: true, code, request: result.data });
      flash(`${result.data.reference} received. The customer has been emailed.`);
    } else {
      setOutcome({ ok: false, code, error: result.error ?? RECEIVE_FAILED });
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const field = input.current;
    if (!field) return;
    const code = field.value;
    field.value = '';
    field.focus();
    void receive(code);
  }

  function stopCamera() {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    setScanning(false);
    input.current?.focus();
  }

  async function startCamera() {
    if (!camera) return;
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
    } catch {
      setOutcome({ ok: false, code: '', error: 'The camera could not be opened. Allow camera access, or use the scanner or keyboard.' });
      return;
    }
    setScanning(true);
    const detector = new camera({ formats: ['qr_code', 'code_128', 'code_39', 'ean_13'] });
    const look = async () => {
      const element = video.current;
      if (!stream.current || !element) return;
      if (element.srcObject !== stream.current) {
        element.srcObject = stream.current;
        await element.play().catch(() => undefined);
      }
      const codes = await detector.detect(element).catch(() => []);
      if (codes[0]?.rawValue) {
        stopCamera();
        void receive(codes[0].rawValue);
      } else requestAnimationFrame(() => void look());
    };
    requestAnimationFrame(() => void look());
  }

  return (
    <div className="flex flex-col gap-5">
      <form onSubmit={submit} className="flex flex-col gap-2" aria-label="Receive a parcel">
        <Label htmlFor="receive-code">Tracking number or packing slip reference</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            ref={input}
            id="receive-code"
            name="code"
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={RECEIVE_CODE_MAX}
            placeholder="Scan, or type and press Enter"
            aria-describedby="receive-hint"
            className="h-11 font-mono text-base"
          />
          <Button type="submit" className="h-11">
            <PackageCheck aria-hidden="true" />
            {busy > 0 ? 'Receiving...' : 'Receive'}
          </Button>
          {camera ? (
            <Button type="button" variant="outline" className="h-11" onClick={() => (scanning ? stopCamera() : void startCamera())}>
              <Camera aria-hidden="true" />
              {scanning ? 'Stop camera' : 'Scan with camera'}
            </Button>
          ) : null}
        </div>
        <p id="receive-hint" className="text-xs text-muted-foreground">
          <ScanLine aria-hidden="true" className="mr-1 inline size-3.5" />
          The carrier's tracking number or the SP-… reference on the packing slip. The item is marked received and the customer is emailed.
        </p>
      </form>
      {scanning ? <video ref={video} className="w-full max-w-md rounded-md border" muted playsInline aria-label="Camera view" /> : null}

      <div role="status" aria-live="polite" data-testid="receive-outcome">
        {outcome?.ok === false ? (
          <Alert variant="destructive">
            <AlertTitle>{outcome.code ? `Not received: ${outcome.code}` : 'Camera unavailable'}</AlertTitle>
            <AlertDescription>{outcome.error}</AlertDescription>
          </Alert>
        ) : null}
        {outcome?.ok ? <Received request={outcome.request} /> : null}
      </div>
    </div>
  );
}

function Received({ request }: { request: ReceivedRequest }) {
  return (
    <section aria-labelledby="received-title" className="flex flex-col gap-4 rounded-md border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id="received-title" className="text-lg font-semibold break-words">
            Received: {request.productName}
          </h2>
          <p className="text-sm text-muted-foreground break-words">
            <span className="font-mono">{request.reference}</span> · {request.brand} · {conditionLabel(request.condition)} · from {request.userEmail}
          </p>
          {request.shippingDetails ? (
            <p className="text-sm text-muted-foreground break-words">
              {request.shippingDetails.carrierName}, tracking <span className="font-mono">{request.shippingDetails.trackingNumber}</span>
            </p>
          ) : null}
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to={`/admin/exchange/${request.id}`}>Open request</Link>
        </Button>
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Photos for inspection</h3>
        <ImageGallery images={request.images} productName={request.productName} />
      </div>
      <p className="text-sm break-words whitespace-pre-line">{request.description}</p>
    </section>
  );
}
