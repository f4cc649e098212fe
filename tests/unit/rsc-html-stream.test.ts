import { describe, expect, test } from 'bun:test';
import { injectRSCPayload as original } from 'rsc-html-stream/server';
import { injectRSCPayload } from '#src/lib/rsc-html-stream.ts';

const encoder = new TextEncoder();

/** A stream that gives each chunk on a later turn of the event loop when `spread`, as a render does while it waits for data. */
function streamOf(chunks: (string | Uint8Array)[], spread = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      for (const chunk of chunks) {
        if (spread) await Bun.sleep(1);
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      }
      controller.close();
    },
  });
}

async function run(inject: typeof injectRSCPayload, html: (string | Uint8Array)[], rsc: (string | Uint8Array)[], spread: boolean): Promise<Uint8Array> {
  const out = streamOf(html, spread).pipeThrough(inject(streamOf(rsc, spread)) as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

const PAYLOAD_SCRIPT = /<script(?: nonce="[^"]*")?>(\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\(.*?\))<\/script>/gs;

/** The page without its payload scripts, and what those scripts push when a browser runs them in order. */
function readPage(bytes: Uint8Array): { html: string; pushed: (string | number[])[] } {
  const text = new TextDecoder().decode(bytes);
  const self: { __FLIGHT_DATA?: (string | Uint8Array)[] } = {};
  for (const [, script] of text.matchAll(PAYLOAD_SCRIPT)) new Function('self', script!)(self);
  const pushed = (self.__FLIGHT_DATA ?? []).map((value) => (typeof value === 'string' ? value : Array.from(value)));
  return { html: text.replace(PAYLOAD_SCRIPT, '<script/>'), pushed };
}

describe('the RSC payload injected into the HTML without decoding the page (src/lib/rsc-html-stream.ts)', () => {
  const shell = '<!DOCTYPE html><html><head><title>x</title></head><body><div>Hello</div>';
  const cases: [string, (string | Uint8Array)[], (string | Uint8Array)[]][] = [
    ['a page in one chunk with its trailer', [`${shell}</body></html>`], ['0:["$","div",null,{}]\n']],
    ['a page in several chunks, the trailer alone at the end', [shell, '<p>more</p>', '</body></html>'], ['0:"a"\n', '1:"b"\n']],
    ['a payload that holds </script> and <!-- in its data', [shell, '</body></html>'], ['0:"</script><script>alert(1)</script><!--"\n']],
    ['Hindi text in both', [`${shell}<p>नमस्ते</p>`, '</body></html>'], ['0:"स्वागत है"\n']],
    ['binary payload data that is not UTF-8', [shell, '</body></html>'], [new Uint8Array([0x30, 0x3a, 0xff, 0xfe, 0x0a])]],
    ["a payload with quotes, backslashes, CR, NUL and U+2028", [shell, '</body></html>'], ['0:"it\'s \\"x\\" \\\\ a\rb\u0000c\u2028d\u2029e</SCRIPT <!-- \'\'"\n']],
  ];
  for (const [name, html, rsc] of cases) {
    for (const spread of [false, true]) {
      test(`${name}${spread ? ', chunks arriving over time' : ''}: the same page and payload as rsc-html-stream`, async () => {
        const ours = await run(injectRSCPayload, html, rsc, spread);
        const theirs = await run(original as typeof injectRSCPayload, html, rsc, spread);
        // the same bytes but for the payload's scripts, which push the same values when run
        const [page, reference] = [readPage(ours), readPage(theirs)];
        expect(page.html).toBe(reference.html);
        expect(page.pushed).toEqual(reference.pushed);
        expect(page.pushed.length).toBeGreaterThan(0);
        expect(typeof rsc[0] === 'string' ? page.pushed.join('') : page.pushed).toEqual(typeof rsc[0] === 'string' ? rsc.join('') : rsc.map((c) => Array.from(c as Uint8Array)));
        // nothing in a script may end it early or open an HTML comment
        for (const [, script] of new TextDecoder().decode(ours).matchAll(PAYLOAD_SCRIPT)) expect(script).not.toMatch(/<\/script|<!--/i);
        expect(new TextDecoder().decode(ours).endsWith('</body></html>')).toBe(true);
      });
    }
  }

  test('the payload scripts carry the nonce when one is given', async () => {
    const text = new TextDecoder().decode(await run((s) => injectRSCPayload(s, { nonce: 'abc' }), [shell, '</body></html>'], ['0:"a"\n'], false));
    expect(text).toContain(`<script nonce="abc">(self.__FLIGHT_DATA||=[]).push('0:"a"\\n')</script></body></html>`);
  });
});
