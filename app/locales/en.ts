/**
 * The English catalog: the words the others are translated from, in ICU
 * MessageFormat (docs/decisions/047-languages.md). A key added here is added
 * to every catalog; tests/unit/catalogs.test.ts fails until it is.
 */
export const en = {
  // The card page.
  "card.description": "{name}'s digital business card",
  "card.nav": "Card",
  "card.mobileQr": "Mobile QR",
  "card.editProfile": "Edit Profile",
  "card.shareMine": "Share my card",
  "card.shareMineLabel": "Share my card: every way to hand it out",
  "card.logo": "{brand} logo",
  "card.claimed": "Claimed",
  "card.unclaimed": "Unclaimed",
  "card.unclaimedProfile": "Unclaimed Profile",
  "card.department": "Department:",
  "card.shareDetails": "Share your details with {name}",
  "card.contactInformation": "Contact information",
  "card.companyWebsite": "Company website",
  "card.website": "Website",
  "card.digitalBusinessCard": "Digital Business Card",
  "card.qrCode": "QR code for {name}'s card",
  "card.generatingQr": "Generating QR code...",
  "card.scanToSave": "Scan with your phone camera to instantly save contact",
  "card.worksWith": "Works with iPhone Camera & Android Scanner apps",
  "card.stats": "Profile Stats",
  "card.totalViews": "Total Views",
  "card.memberSince": "Member Since",
  "card.status": "Status",
  "card.active": "Active",
  "card.howToSave": "How to save this contact",
  "card.howToSave.tap": "Tap <b>Save Contact</b> to download the contact file.",
  "card.howToSave.iphone": "On iPhone, open it and tap <b>Add to Contacts</b>.",
  "card.howToSave.android": "On Android, open it from your downloads and choose your contacts app.",
  "card.howToSave.scan": "Or scan the QR code with another phone's camera.",
  "card.reportingLine": "Reporting line",
  "card.reportsTo": "Reports to",
  "card.directReports": "Direct reports ({count})",
  "card.views": "{count, plural, one {view} other {views}}",
  "card.backToDirectory": "Back to Directory",
  "card.notFound": "The profile you're looking for doesn't exist or has been removed.",
  "card.notFoundShort": "The profile you're looking for doesn't exist.",

  // The card's fields, as the card page labels them.
  "field.email": "Email",
  "field.phone": "Phone",
  "field.office": "Office",
  "field.languages": "Languages",
  "field.linkedinUrl": "LinkedIn",
  "field.links": "Links",

  // The card's buttons.
  "actions.saveContact": "Save Contact",
  "actions.saving": "Saving...",
  "actions.saved": "Contact saved! {name}'s contact information has been downloaded to your device.",
  "actions.saveFailed": "Failed to save contact. Please try again.",
  "actions.linkToCard": "Link to this card",
  "actions.shareProfile": "Share Profile",
  "actions.sharing": "Sharing...",
  "actions.linkCopied": "Link Copied!",
  "actions.copyLink": "Copy Link",
  "actions.copied": "Copied!",
  "actions.copyPrompt": "Copy this link:",
  "actions.downloadQr": "Download QR",

  // Back, and the theme.
  "back.short": "Back",
  "back.toPlace": "to {name}",
  "theme.label": "Theme",
  "theme.current": "Theme: {theme}",
  "theme.light": "Light",
  "theme.dark": "Dark",
  "theme.system": "System",

  // The QR page.
  "qr.viewFullProfile": "View Full Profile",
  "qr.scanToConnect": "Scan to connect with {name}",
  "qr.pointCamera": "Point your camera at this QR code to view contact details",
  "qr.poweredBy": "Powered by {company}",

  // The lead form.
  "lead.ownersCard": "{name}'s card",
  "lead.intro": "{name} gets them by e-mail and can get back in touch with you.",
  "lead.ownerNote": "This is the form visitors of your card fill in. What they send is on your Leads page.",
  "lead.name": "Name",
  "lead.email": "Email",
  "lead.phone": "Phone",
  "lead.emailOrPhone": "An email address or a phone number, or both.",
  "lead.company": "Company",
  "lead.jobTitle": "Job title",
  "lead.note": "Note",
  "lead.noteHint": "Where you met, or what you would like to talk about with {name}.",
  "lead.wantsCard": "Also email me {name}'s contact card",
  "lead.privacyPolicy": "Privacy policy",
  "lead.sending": "Sending...",
  "lead.submit": "Share my details",
  "lead.thanks": "Thank you!",
  "lead.sent": "{name} has your details and can get back in touch with you.",
  "lead.cardOnItsWay": "{name}'s contact card is on its way to your inbox.",
  "lead.saveContact": "Save {name}'s contact",
  "lead.backToCard": "Back to the card",
  "lead.tooMany": "Your details were sent to {name} several times in the last few minutes. Please try again later.",
  "lead.expired": "This form was open for a long time. Check your details and send them again.",
  "lead.tooSoon": "Check your details, then press Share my details again.",
  "lead.error.notText": "Enter this as text",
  "lead.error.oneLine": "Write this on one line of plain text, without line breaks or control characters",
  "lead.error.controlCharacters":
    "Remove the control characters from the note: only letters, numbers, punctuation and line breaks can be used",
  "lead.error.name": "Enter your name",
  "lead.error.email": "Enter an email address such as name@company.com",
  "lead.error.phone":
    "Enter a phone number such as +49 30 1234 5678 (digits, spaces, + ( ) -), and an extension as ext. 123",
  "lead.error.emailOrPhone": "Enter an email address or a phone number",
  "lead.error.consent": "Tick the box to agree, or your details cannot be sent",
  "lead.error.cardNeedsEmail": "Enter your email address to receive the contact card",
  "lead.error.tooLong.name": "Use at most {max, number} characters for the name",
  "lead.error.tooLong.email": "Use at most {max, number} characters for the email address",
  "lead.error.tooLong.phone": "Use at most {max, number} characters for the phone number",
  "lead.error.tooLong.company": "Use at most {max, number} characters for the company",
  "lead.error.tooLong.title": "Use at most {max, number} characters for the job title",
  "lead.error.tooLong.message": "Use at most {max, number} characters for the note",
  "mail.card.subject": "{name}'s contact card",
  "mail.card.hello": "Hello,",
  "mail.card.body":
    "Here is {name}'s contact card, as you asked when you shared your details. Open the attached file to save it to your contacts.",
  "mail.card.link": "{name}'s card",
  "lead.consent":
    "I agree that {owner} of {company} may keep the details I give here to get back in touch with me about our conversation. {company} keeps them for {months, plural, one {# month} other {# months}} at most, and I can ask for them to be erased at any time, as the privacy policy explains.",
} as const;

/** A message's key: the English catalog's keys are every catalog's. */
export type MessageId = keyof typeof en;
/** A catalog: every key, in one language. */
export type Catalog = Record<MessageId, string>;
