import type { Language } from '#api/modules/users/rules.ts';

/**
 * What the mails a customer gets say, in each language they can choose (users/rules.ts LANGUAGES).
 * The English is the text mails have always had; a customer's mail is in their saved language.
 * `MailTexts` is one type for both, so a Hindi text cannot be missing or take other values.
 */
export interface MailTexts {
  hello: string;
  signature: string;
  viewRequest: string;
  signIn: { subject: string; body: (minutes: number) => string; ignore: string; action: string };
  approved: { subject: (product: string) => string; body: (product: string) => string; note: (feedback: string) => string; shipTo: (address: string) => string; next: string };
  declined: {
    subject: (product: string) => string;
    body: (product: string) => string;
    feedback: (feedback: string) => string;
    noFeedback: string;
    /** the reason the deadlines job gives a request never shipped (credit/rules.ts notShippedFeedback, in English) */
    notShipped: (days: number) => string;
  };
  received: { subject: (product: string) => string; body: (product: string) => string; next: string };
  credited: {
    subject: (amount: string, product: string) => string;
    body: (product: string, amount: string) => string;
    use: string;
    /** the valuation lines (credit/terms.ts creditMailLines) */
    quoted: (quote: string, base: string) => string;
    /** `campaign.bonusName`: valuation's English name of the bonus ('Diwali bonus'); `campaign.name` as the admin wrote it */
    bonus: (total: string, bonus: string, campaign: { name: string | null; bonusName: string }, base: string) => string;
    below: (reason: string) => string;
    photos: (urls: string) => string;
  };
  completed: { subject: (product: string) => string; body: (product: string, amount: string) => string; thanks: string };
  expiry: { subject: (amount: string, when: string) => string; body: (amount: string, when: string) => string; use: string; action: string };
  address: { contact: string; phone: string };
  /** a revised offer (credit/offer.ts); `respondBy` is the answer date written for the reader */
  offer: {
    subject: (product: string, amount: string) => string;
    body: (product: string, quoted: string, amount: string) => string;
    reason: (reason: string) => string;
    answer: (respondBy: string) => string;
    noAnswer: (respondBy: string, amount: string) => string;
    action: string;
  };
  offerReminder: { subject: (product: string, respondBy: string) => string; body: (amount: string, product: string) => string };
  shipReminder: { subject: (product: string, shipBy: string) => string; body: (product: string) => string; deadline: (shipBy: string) => string };
  /** a declined offer's item sent back (credit/returns.ts) */
  returnShipped: { subject: (product: string) => string; body: (product: string, carrier: string, trackingNumber: string) => string };
  /** the prepaid label's mails (shipments/mails.ts) */
  labelReady: { subject: (product: string) => string; body: (carrier: string, trackingNumber: string) => string; print: string; action: string };
  pickedUp: { subject: (product: string) => string; body: (carrier: string, trackingNumber: string) => string };
  delivered: { subject: (product: string) => string; body: (carrier: string, trackingNumber: string) => string };
}

const en: MailTexts = {
  hello: 'Hello,',
  signature: '— SwapPoints',
  viewRequest: 'View your exchange request',
  signIn: {
    subject: 'Your SwapPoints sign-in link',
    body: (minutes) => `Use the link below to sign in to SwapPoints. It works once and expires in ${minutes} minutes.`,
    ignore: 'If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.',
    action: 'Sign in to SwapPoints',
  },
  approved: {
    subject: (product) => `Your exchange request for ${product} is approved`,
    body: (product) => `Good news: your exchange request for ${product} has been approved.`,
    note: (feedback) => `Our team's note: ${feedback}`,
    shipTo: (address) => `Please ship the item to this address:\n${address}`,
    next: 'Once it is on its way, add the carrier, tracking number and shipping date on your request page.',
  },
  declined: {
    subject: (product) => `Your exchange request for ${product} was declined`,
    body: (product) => `We're sorry: your exchange request for ${product} has been declined.`,
    feedback: (feedback) => `Our team's feedback: ${feedback}`,
    noFeedback: 'Our team did not leave any further feedback.',
    notShipped: (days) => `Not shipped within ${days} days`,
  },
  received: {
    subject: (product) => `We received your ${product}`,
    body: (product) => `Your ${product} has arrived at our warehouse and is now being inspected.`,
    next: 'We will let you know as soon as store credit has been assigned.',
  },
  credited: {
    subject: (amount, product) => `${amount} store credit for your ${product}`,
    body: (product, amount) => `We have valued your ${product} and assigned ${amount} in store credit to your shop account.`,
    use: 'You can use it on your next purchase.',
    quoted: (quote, base) => `You were quoted ${quote} when you submitted it; after inspection we credited ${base}.`,
    bonus: (total, bonus, campaign, base) => `Your total of ${total} includes a ${bonus} ${campaign.bonusName} on top of ${base}.`,
    below: (reason) => `Why the credit is below the quote: ${reason}`,
    photos: (urls) => `Inspection photos: ${urls}`,
  },
  completed: {
    subject: (product) => `Your exchange of ${product} is complete`,
    body: (product, amount) => `Your exchange of ${product} is complete: ${amount} in store credit is yours to use on your next purchase.`,
    thanks: 'Thank you for trading in with us.',
  },
  expiry: {
    subject: (amount, when) => `Your ${amount} store credit expires on ${when}`,
    body: (amount, when) => `The ${amount} in store credit you received for a trade-in expires on ${when}.`,
    use: 'Use it on a purchase before then so that it is not lost.',
    action: 'See your credit',
  },
  address: { contact: 'Contact', phone: 'Phone' },
  offer: {
    subject: (product, amount) => `Our offer for your ${product}: ${amount}`,
    body: (product, quoted, amount) => `We have inspected your ${product}. You were quoted ${quoted} when you submitted it; after inspection we can offer ${amount} in store credit.`,
    reason: (reason) => `Why the offer is below the quote: ${reason}`,
    answer: (respondBy) =>
      `Please accept or decline the offer on your request page by ${respondBy}. If you decline, we send the item back to you free of charge or recycle it, as you choose.`,
    noAnswer: (respondBy, amount) => `If we have no answer from you by ${respondBy}, the offer is accepted and ${amount} is credited to your account.`,
    action: 'Answer the offer',
  },
  offerReminder: {
    subject: (product, respondBy) => `Reminder: our offer for your ${product} is accepted on ${respondBy} without an answer`,
    body: (amount, product) => `We are still waiting for your answer to our offer of ${amount} for your ${product}.`,
  },
  shipReminder: {
    subject: (product, shipBy) => `Please ship your ${product} by ${shipBy}`,
    body: (product) => `Your exchange request for ${product} is approved, but we have no shipping details for it yet.`,
    deadline: (shipBy) =>
      `Please ship the item and add the carrier and tracking number on your request page by ${shipBy}. A request not shipped by then is closed; you can submit it again afterwards.`,
  },
  returnShipped: {
    subject: (product) => `Your ${product} is on its way back to you`,
    body: (product, carrier, trackingNumber) => `We have sent your ${product} back to you with ${carrier}, tracking number ${trackingNumber}.`,
  },
  labelReady: {
    subject: (product) => `Your prepaid label for ${product}`,
    body: (carrier, trackingNumber) => `Your prepaid return label is ready: ${carrier}, tracking number ${trackingNumber}.`,
    print: 'Print the label and the packing slip (one PDF), put the slip in the box, stick the label on it and hand the parcel to the courier when they come for it.',
    action: 'Download your label',
  },
  pickedUp: {
    subject: (product) => `Your ${product} is on its way`,
    body: (carrier, trackingNumber) => `${carrier} picked up your parcel (tracking number ${trackingNumber}). We will let you know when it reaches our warehouse.`,
  },
  delivered: {
    subject: (product) => `Your ${product} reached our warehouse`,
    body: (carrier, trackingNumber) => `${carrier} delivered your parcel (tracking number ${trackingNumber}) to our warehouse. We will inspect the item and assign your store credit.`,
  },
};

const hi: MailTexts = {
  hello: 'नमस्ते,',
  signature: '— SwapPoints',
  viewRequest: 'अपनी एक्सचेंज रिक्वेस्ट देखें',
  signIn: {
    subject: 'आपका SwapPoints साइन-इन लिंक',
    body: (minutes) => `SwapPoints में साइन इन करने के लिए नीचे दिया गया लिंक इस्तेमाल करें। यह एक ही बार चलेगा और ${minutes} मिनट में खत्म हो जाएगा।`,
    ignore: 'अगर आपने साइन इन के लिए नहीं कहा था, तो इस ईमेल को अनदेखा कर दें: लिंक के बिना कोई साइन इन नहीं कर सकता।',
    action: 'SwapPoints में साइन इन करें',
  },
  approved: {
    subject: (product) => `${product} के लिए आपकी एक्सचेंज रिक्वेस्ट स्वीकार हो गई है`,
    body: (product) => `खुशखबरी: ${product} के लिए आपकी एक्सचेंज रिक्वेस्ट स्वीकार कर ली गई है।`,
    note: (feedback) => `हमारी टीम का संदेश: ${feedback}`,
    shipTo: (address) => `कृपया सामान इस पते पर भेजें:\n${address}`,
    next: 'सामान भेजने के बाद, अपनी रिक्वेस्ट के पेज पर कूरियर कंपनी, ट्रैकिंग नंबर और भेजने की तारीख़ जोड़ें।',
  },
  declined: {
    subject: (product) => `${product} के लिए आपकी एक्सचेंज रिक्वेस्ट अस्वीकार कर दी गई`,
    body: (product) => `हमें खेद है: ${product} के लिए आपकी एक्सचेंज रिक्वेस्ट अस्वीकार कर दी गई है।`,
    feedback: (feedback) => `हमारी टीम की राय: ${feedback}`,
    noFeedback: 'हमारी टीम ने इसके बारे में और कुछ नहीं लिखा है।',
    notShipped: (days) => `${days} दिनों के भीतर नहीं भेजा गया`,
  },
  received: {
    subject: (product) => `हमें आपका ${product} मिल गया है`,
    body: (product) => `आपका ${product} हमारे वेयरहाउस में पहुँच गया है और अब उसकी जाँच हो रही है।`,
    next: 'स्टोर क्रेडिट मिलते ही हम आपको बताएँगे।',
  },
  credited: {
    subject: (amount, product) => `आपके ${product} के लिए ${amount} का स्टोर क्रेडिट`,
    body: (product, amount) => `हमने आपके ${product} की कीमत तय कर दी है और आपके शॉप अकाउंट में ${amount} का स्टोर क्रेडिट जोड़ दिया है।`,
    use: 'आप इसे अपनी अगली ख़रीदारी में इस्तेमाल कर सकते हैं।',
    quoted: (quote, base) => `रिक्वेस्ट भेजते समय आपको ${quote} का अनुमान बताया गया था; जाँच के बाद हमने ${base} का क्रेडिट दिया है।`,
    bonus: (total, bonus, campaign, base) => `आपके कुल ${total} में ${base} के ऊपर ${bonus} का ${campaign.name?.trim() ? `${campaign.name.trim()} ` : ''}बोनस शामिल है।`,
    below: (reason) => `क्रेडिट अनुमान से कम क्यों है: ${reason}`,
    photos: (urls) => `जाँच की फ़ोटो: ${urls}`,
  },
  completed: {
    subject: (product) => `${product} का आपका एक्सचेंज पूरा हो गया है`,
    body: (product, amount) => `${product} का आपका एक्सचेंज पूरा हो गया है: ${amount} का स्टोर क्रेडिट आपकी अगली ख़रीदारी के लिए तैयार है।`,
    thanks: 'हमारे साथ ट्रेड-इन करने के लिए धन्यवाद।',
  },
  expiry: {
    subject: (amount, when) => `आपका ${amount} का स्टोर क्रेडिट ${when} को खत्म हो रहा है`,
    body: (amount, when) => `ट्रेड-इन के लिए मिला आपका ${amount} का स्टोर क्रेडिट ${when} को खत्म हो जाएगा।`,
    use: 'उससे पहले इसे किसी ख़रीदारी में इस्तेमाल कर लें, ताकि यह बेकार न जाए।',
    action: 'अपना क्रेडिट देखें',
  },
  address: { contact: 'संपर्क', phone: 'फ़ोन' },
  offer: {
    subject: (product, amount) => `आपके ${product} के लिए हमारा ऑफ़र: ${amount}`,
    body: (product, quoted, amount) =>
      `हमने आपके ${product} की जाँच कर ली है। रिक्वेस्ट भेजते समय आपको ${quoted} का अनुमान बताया गया था; जाँच के बाद हम ${amount} का स्टोर क्रेडिट दे सकते हैं।`,
    reason: (reason) => `ऑफ़र अनुमान से कम क्यों है: ${reason}`,
    answer: (respondBy) =>
      `कृपया ${respondBy} तक अपनी रिक्वेस्ट के पेज पर ऑफ़र स्वीकार या अस्वीकार करें। अगर आप अस्वीकार करते हैं, तो आपकी पसंद के अनुसार हम सामान आपको मुफ़्त में वापस भेज देंगे या उसे रीसायकल कर देंगे।`,
    noAnswer: (respondBy, amount) => `अगर ${respondBy} तक हमें आपका जवाब नहीं मिलता, तो ऑफ़र स्वीकार माना जाएगा और ${amount} आपके अकाउंट में क्रेडिट कर दिए जाएँगे।`,
    action: 'ऑफ़र का जवाब दें',
  },
  offerReminder: {
    subject: (product, respondBy) => `याद दिलाना: जवाब न मिलने पर आपके ${product} के लिए हमारा ऑफ़र ${respondBy} को स्वीकार माना जाएगा`,
    body: (amount, product) => `आपके ${product} के लिए ${amount} के हमारे ऑफ़र पर हमें अभी भी आपके जवाब का इंतज़ार है।`,
  },
  shipReminder: {
    subject: (product, shipBy) => `कृपया अपना ${product} ${shipBy} तक भेज दें`,
    body: (product) => `${product} के लिए आपकी एक्सचेंज रिक्वेस्ट स्वीकार हो चुकी है, लेकिन हमें अभी तक इसे भेजे जाने की जानकारी नहीं मिली है।`,
    deadline: (shipBy) =>
      `कृपया ${shipBy} तक सामान भेजें और अपनी रिक्वेस्ट के पेज पर कूरियर कंपनी और ट्रैकिंग नंबर जोड़ें। तब तक न भेजी गई रिक्वेस्ट बंद कर दी जाती है; उसके बाद आप इसे फिर से भेज सकते हैं।`,
  },
  returnShipped: {
    subject: (product) => `आपका ${product} आपको वापस भेज दिया गया है`,
    body: (product, carrier, trackingNumber) => `हमने आपका ${product} ${carrier} से आपको वापस भेज दिया है, ट्रैकिंग नंबर ${trackingNumber}।`,
  },
  labelReady: {
    subject: (product) => `${product} के लिए आपका प्रीपेड लेबल`,
    body: (carrier, trackingNumber) => `आपका प्रीपेड रिटर्न लेबल तैयार है: ${carrier}, ट्रैकिंग नंबर ${trackingNumber}।`,
    print: 'लेबल और पैकिंग स्लिप (एक ही पीडीएफ़ फ़ाइल में) प्रिंट करें, स्लिप को डिब्बे के अंदर रखें, लेबल डिब्बे पर चिपकाएँ और कूरियर वाले के आने पर पार्सल उन्हें सौंप दें।',
    action: 'अपना लेबल डाउनलोड करें',
  },
  pickedUp: {
    subject: (product) => `आपका ${product} रास्ते में है`,
    body: (carrier, trackingNumber) => `${carrier} ने आपका पार्सल ले लिया है (ट्रैकिंग नंबर ${trackingNumber})। हमारे वेयरहाउस पहुँचते ही हम आपको बताएँगे।`,
  },
  delivered: {
    subject: (product) => `आपका ${product} हमारे वेयरहाउस पहुँच गया है`,
    body: (carrier, trackingNumber) => `${carrier} ने आपका पार्सल (ट्रैकिंग नंबर ${trackingNumber}) हमारे वेयरहाउस पहुँचा दिया है। हम सामान की जाँच करके आपका स्टोर क्रेडिट देंगे।`,
  },
};

export const MAIL_TEXTS: Record<Language, MailTexts> = { en, hi };
