import type { enAccount } from './en-account.ts';

/** The Hindi texts of the account pieces and shared parts: every key of en-account.ts with the same {params}. */
export const hiAccount: Record<keyof typeof enAccount, string> = {
  // WhatsApp updates
  'whatsapp.title': 'WhatsApp अपडेट',
  'whatsapp.intro': 'अपने ट्रेड-इन की जानकारी ईमेल के साथ WhatsApp पर भी पाएँ। बंद करने के लिए कभी भी WhatsApp पर STOP लिखकर भेजें।',
  'whatsapp.phoneHint': '10 अंकों का भारतीय मोबाइल नंबर, या किसी दूसरे देश के लिए + और उस देश का कोड।',
  'whatsapp.optIn': 'मुझे WhatsApp पर अपडेट भेजें',
  'whatsapp.save': 'WhatsApp सेटिंग सेव करें',
  'whatsapp.failed': 'आपकी WhatsApp सेटिंग सेव नहीं हो सकीं। कृपया फिर से कोशिश करें।',
  'whatsapp.savedOn': 'सेव हो गया। WhatsApp अपडेट {phone} पर जाएँगे।',
  'whatsapp.savedOff': 'सेव हो गया। आपको WhatsApp अपडेट नहीं मिलेंगे।',
  'profile.phone': 'WhatsApp नंबर',
  'profile.whatsapp': 'WhatsApp अपडेट',
  'profile.language': 'भाषा',

  // Your data
  'data.title': 'आपका डेटा',
  'data.intro': 'हमारे पास आपकी जो भी जानकारी है (रिक्वेस्ट, फ़ोटो, शिपिंग विवरण, क्रेडिट और ईमेल), उसकी कॉपी डाउनलोड करें, या अपना अकाउंट हटाएँ।',
  'data.download': 'मेरा डेटा डाउनलोड करें',
  'data.delete': 'मेरा अकाउंट हटाएँ',
  'data.deleteTitle': 'अपना अकाउंट हटाएँ?',
  'data.deleteBody':
    'अपना अकाउंट हटाएँ? आपका ईमेल पता, नाम, फ़ोटो, शिपिंग नोट और ईमेल हमेशा के लिए हटा दिए जाएँगे; जो क्रेडिट पहले दिया जा चुका है, वह शॉप में रहेगा। यह वापस नहीं हो सकता।',
  'data.keep': 'नहीं, मेरा अकाउंट रहने दें',
  'data.confirm': 'हाँ, मेरा अकाउंट हटाएँ',
  'data.failed': 'आपका अकाउंट नहीं हटाया जा सका। कृपया थोड़ी देर बाद कोशिश करें।',

  // the loyalty card
  'card.holder': 'सम्मानित ग्राहक',
  'card.brand': 'स्वैप • पॉइंट्स • शॉप',
  'card.valid': 'वैधता: ∞',

  // updated terms
  'terms.updated': 'हमने अपनी शर्तें बदली हैं।',
  'terms.read': 'SwapPoints का इस्तेमाल जारी रखने के लिए कृपया {terms} और {privacy} पढ़ें और सहमति दें।',
  'terms.agree': 'मैं सहमत हूँ',
  'terms.saving': 'सेव हो रहा है',
  'terms.failed': 'आपकी सहमति सेव नहीं हो सकी। कृपया फिर से कोशिश करें।',
  'terms.thanks': 'धन्यवाद। बदली हुई शर्तों पर आपकी सहमति सेव हो गई है।',

  // the request form's fields
  'field.productName': 'प्रोडक्ट का नाम',
  'field.brand': 'ब्रांड',
  'field.description': 'विवरण',
  'field.carrierName': 'कूरियर कंपनी का नाम',
  'field.trackingNumber': 'ट्रैकिंग नंबर',
  'field.notes': 'अतिरिक्त नोट',
  'field.count': '{length}/{max} अक्षर',
  'field.tooLong': '{label} में ज़्यादा से ज़्यादा {max} अक्षर हो सकते हैं।',

  // the photo picker
  'images.tooMany.one': 'ज़्यादा से ज़्यादा {max} फ़ोटो जोड़ी जा सकती हैं: {count} फ़ोटो नहीं जोड़ी गई।',
  'images.tooMany.other': 'ज़्यादा से ज़्यादा {max} फ़ोटो जोड़ी जा सकती हैं: {count} फ़ोटो नहीं जोड़ी गईं।',
  'images.uploadFailed': 'फ़ोटो अपलोड नहीं हो सकी। कृपया फिर से कोशिश करें।',
  'images.none': 'कोई फ़ोटो नहीं',

  // shared pieces
  'refresh.refreshing': 'रीफ़्रेश हो रहा है',
  'refresh.loading': 'लोड हो रहा है',
  'flash.dismiss': 'हटाएँ',
  'nav.loadingPage': 'पेज लोड हो रहा है',
};
