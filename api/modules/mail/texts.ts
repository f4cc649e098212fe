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
  declined: { subject: (product: string) => string; body: (product: string) => string; feedback: (feedback: string) => string; noFeedback: string };
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
};

export const MAIL_TEXTS: Record<Language, MailTexts> = { en, hi };
