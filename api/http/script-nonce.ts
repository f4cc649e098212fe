/**
 * Inline scripts allowed by a nonce instead of 'unsafe-inline'. Waku writes its bootstrap and the
 * RSC payload as inline <script> elements into the streamed HTML and has no nonce option, so each
 * HTML response gets a fresh nonce and every <script> element in its stream carries it
 * (Bun's HTMLRewriter: streaming, it never holds the page). An injected script (a stored
 * `<script>` that escaped React's escaping) has no nonce the attacker could know, so it does not run.
 */
export function scriptNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export function withScriptNonce(response: Response, nonce: string): Response {
  return new HTMLRewriter()
    .on('script', {
      element(script) {
        script.setAttribute('nonce', nonce);
      },
    })
    .transform(response);
}
