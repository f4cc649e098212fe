/**
 * The WhatsApp templates: what each says, in English and Hindi, and the parameters it fills in
 * ({{1}}, {{2}}, … in the order of `params`). Meta sends only templates registered and approved in
 * WhatsApp Manager (category Utility), so README.md lists these texts to register under `name`
 * (WHATSAPP_TEMPLATE_NAMES renames them). Plain TypeScript, no imports.
 */

interface TemplateSpec {
  /** the name registered with Meta unless WHATSAPP_TEMPLATE_NAMES says otherwise */
  name: string;
  /** the body parameters, in order */
  params: readonly string[];
  text: { en: string; hi: string };
}

export const WHATSAPP_TEMPLATES = {
  request_approved: {
    name: 'swappoints_request_approved',
    params: ['product', 'shipTo', 'link'],
    text: {
      en: 'Good news: your trade-in request for {{1}} was approved. Please ship it to: {{2}}. See the details: {{3}}',
      hi: 'खुशखबरी: {{1}} के लिए आपका ट्रेड-इन अनुरोध स्वीकार हो गया है। कृपया इसे यहाँ भेजें: {{2}}। विवरण देखें: {{3}}',
    },
  },
  request_declined: {
    name: 'swappoints_request_declined',
    params: ['product', 'reason', 'link'],
    text: {
      en: 'Your trade-in request for {{1}} was not accepted. Reason: {{2}}. See the details: {{3}}',
      hi: '{{1}} के लिए आपका ट्रेड-इन अनुरोध स्वीकार नहीं हुआ। कारण: {{2}}। विवरण देखें: {{3}}',
    },
  },
  label_ready: {
    name: 'swappoints_label_ready',
    params: ['product', 'labelLink'],
    text: {
      en: 'The shipping label for your {{1}} is ready. Print it and stick it on the parcel: {{2}}',
      hi: 'आपके {{1}} का शिपिंग लेबल तैयार है। इसे प्रिंट करके पार्सल पर लगाएँ: {{2}}',
    },
  },
  picked_up: {
    name: 'swappoints_picked_up',
    params: ['product', 'carrier', 'link'],
    text: {
      en: 'Your {{1}} was picked up by {{2}} and is on its way to us. Follow it: {{3}}',
      hi: 'आपका {{1}} {{2}} ने उठा लिया है और हमारे पास आ रहा है। इसकी स्थिति देखें: {{3}}',
    },
  },
  item_received: {
    name: 'swappoints_item_received',
    params: ['product', 'link'],
    text: {
      en: 'We received your {{1}}. We will check it and assign your store credit soon. See the details: {{2}}',
      hi: 'हमें आपका {{1}} मिल गया है। हम इसकी जाँच करके जल्द ही आपका स्टोर क्रेडिट देंगे। विवरण देखें: {{2}}',
    },
  },
  offer_waiting: {
    name: 'swappoints_offer_waiting',
    params: ['product', 'amount', 'respondBy', 'link'],
    text: {
      en: 'We offer {{2}} in store credit for your {{1}}. Please accept or decline by {{3}}: {{4}}',
      hi: 'आपके {{1}} के लिए हम {{2}} का स्टोर क्रेडिट दे रहे हैं। कृपया {{3}} तक स्वीकार या अस्वीकार करें: {{4}}',
    },
  },
  ship_reminder: {
    name: 'swappoints_ship_reminder',
    params: ['product', 'shipBy', 'link'],
    text: {
      en: 'A reminder: please ship your {{1}} by {{2}} so that your trade-in stays open. See the details: {{3}}',
      hi: 'याद दिलाना: कृपया अपना {{1}} {{2}} तक भेजें ताकि आपका ट्रेड-इन खुला रहे। विवरण देखें: {{3}}',
    },
  },
  return_shipped: {
    name: 'swappoints_return_shipped',
    params: ['product', 'carrier', 'trackingNumber', 'link'],
    text: {
      en: 'Your {{1}} is on its way back to you with {{2}}, tracking number {{3}}. See the details: {{4}}',
      hi: 'आपका {{1}} {{2}} से आपको वापस भेजा जा रहा है, ट्रैकिंग नंबर {{3}}। विवरण देखें: {{4}}',
    },
  },
  credit_assigned: {
    name: 'swappoints_credit_assigned',
    params: ['product', 'amount', 'link'],
    text: {
      en: 'Your {{1}} was valued: {{2}} in store credit is on its way to your account. See the details: {{3}}',
      hi: 'आपके {{1}} का मूल्यांकन हो गया: {{2}} का स्टोर क्रेडिट आपके खाते में आ रहा है। विवरण देखें: {{3}}',
    },
  },
  exchange_completed: {
    name: 'swappoints_exchange_completed',
    params: ['product', 'amount', 'link'],
    text: {
      en: 'Your trade-in of {{1}} is complete: {{2}} in store credit is in your account. See the details: {{3}}',
      hi: '{{1}} का आपका ट्रेड-इन पूरा हुआ: {{2}} का स्टोर क्रेडिट आपके खाते में है। विवरण देखें: {{3}}',
    },
  },
  credit_expiry_reminder: {
    name: 'swappoints_credit_expiry_reminder',
    params: ['amount', 'expiresOn', 'link'],
    text: {
      en: 'A reminder: your {{1}} store credit expires on {{2}}. Use it on a purchase before then: {{3}}',
      hi: 'याद दिलाना: आपका {{1}} का स्टोर क्रेडिट {{2}} को समाप्त हो जाएगा। उससे पहले इसे किसी खरीद में इस्तेमाल करें: {{3}}',
    },
  },
} as const satisfies Record<string, TemplateSpec>;

export type WhatsAppTemplate = keyof typeof WHATSAPP_TEMPLATES;
export const WHATSAPP_TEMPLATE_KEYS = Object.keys(WHATSAPP_TEMPLATES) as WhatsAppTemplate[];

/** The named parameters a template takes: `{ product: string; shipTo: string; link: string }`. */
export type TemplateParams<T extends WhatsAppTemplate> = { [P in (typeof WHATSAPP_TEMPLATES)[T]['params'][number]]: string };

/** Longest text one body parameter may carry (Meta's limit is higher; a longer one is cut with …). */
export const PARAM_MAX_LENGTH = 300;

/**
 * The parameters in the template's order, each made acceptable to the Cloud API: a body parameter
 * may hold no new lines or tabs and no more than four spaces in a row, and may not be empty.
 */
export function orderedParams<T extends WhatsAppTemplate>(template: T, params: TemplateParams<T>): string[] {
  return WHATSAPP_TEMPLATES[template].params.map((key) => {
    const text = String((params as Record<string, string>)[key] ?? '').replace(/\s+/g, ' ').trim() || '-';
    return text.length > PARAM_MAX_LENGTH ? `${text.slice(0, PARAM_MAX_LENGTH - 1)}…` : text;
  });
}

/** What a customer who replies with this text means: STOP (any case, spaces around) opts them out. */
export const isStopReply = (text: string): boolean => text.trim().toUpperCase() === 'STOP';

export const WEBHOOK_SIGNATURE_INVALID = 'The webhook signature (X-Hub-Signature-256) is missing or does not match.';
export const VERIFY_TOKEN_INVALID = 'The verify token does not match.';
export const WHATSAPP_OFF = 'WhatsApp is not set up on this server.';
export const OPTED_OUT_ERROR = 'Not sent: the customer is no longer opted in to WhatsApp at this number.';
