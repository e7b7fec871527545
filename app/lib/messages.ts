/**
 * What readers see: reader pages and their islands, the errors any page shows, the offline page, a live
 * story. The newsroom's strings are in newsroom-messages.ts, the alert bell's in alert-bell-messages.ts,
 * so a reader page's script carries only its own. Those docs/product.md#messages names are the product's
 * wording, letter for letter.
 */
export const messages = {
  // docs/product.md#messages, news and content
  newsNotFound: "الخبر غير موجود",
  updateSucceeded: "✅ تم تحديث الخبر بنجاح",
  shortLinkCopied: "✅ تم نسخ الرابط القصير",
  shortLinkCopyFailed: "❌ فشل نسخ الرابط",
  shortLinkNotFound: "الرابط غير موجود",
  confirmDeleteBreaking: "هل تريد حذف هذا الخبر العاجل؟",
  confirmDeleteArticle: "هل أنت متأكد من حذف هذا الخبر؟",
  noNews: "لا توجد أخبار حالياً",
  noBreakingNews: "لا يوجد أخبار عاجلة حالياً",
  noResults: "لا توجد نتائج.",
  shareUnsupported: "المشاركة غير مدعومة في هذا المتصفح، يرجى استخدام زر نسخ الرابط.",
  lastUpdated: "آخر تحديث",
  more: "المزيد",

  // Navigation and layout
  home: "الرئيسية",
  lebanonNews: "أخبار لبنان",
  dashboard: "لوحة التحكم",
  signIn: "تسجيل الدخول",
  signOut: "تسجيل الخروج",
  search: "بحث",
  searchPlaceholder: "ابحث عن خبر…",
  openMenu: "فتح القائمة",
  closeMenu: "إغلاق القائمة",
  mainNavigation: "التنقل الرئيسي",
  mobileNavigation: "قائمة الجوال",
  scrollToTop: "العودة إلى الأعلى",
  skipToContent: "انتقل إلى المحتوى",
  loading: "جارٍ التحميل…",
  backHome: "العودة إلى الصفحة الرئيسية",

  // Footer
  footerSections: "الأقسام",
  footerSite: "عن الموقع",
  footerFollow: "تابعونا",
  whoTitle: "من نحن",
  contactTitle: "اتصل بنا",
  privacyTitle: "سياسة الخصوصية",
  developmentTitle: "التطوير",
  copyright: "جميع الحقوق محفوظة",

  // Home
  latestNews: "آخر الأخبار",
  mostRead: "الأكثر قراءة",
  featured: "أبرز الأخبار",
  previousSlide: "الشريحة السابقة",
  nextSlide: "الشريحة التالية",
  pauseSlider: "إيقاف العرض",
  playSlider: "تشغيل العرض",
  goToSlide: "انتقل إلى الشريحة",
  seeAll: "عرض الكل",

  // Article
  visits: "زيارة",
  share: "مشاركة",
  relatedNews: "أخبار ذات صلة",
  picks: "مختارات",
  articleVideo: "فيديو الخبر",
  playVideo: "تشغيل الفيديو",
  imageOf: "صورة من خبر",

  categoryDescriptionSuffix: "من طرابلس والشمال ولبنان والعالم: آخر الأخبار والتقارير على موقع أخبار الشمال.",
  breakingDescription: "آخر الأخبار العاجلة من طرابلس والشمال اللبناني، محدّثة لحظة بلحظة.",
  searchDescription: "ابحث في أرشيف أخبار طرابلس والشمال.",
  shareOn: "شارك على",
  copyLink: "نسخ الرابط",
  linkCopied: "✅ تم نسخ الرابط",

  // Category pages
  page: "الصفحة",
  nextPage: "الصفحة التالية",
  previousPage: "الصفحة السابقة",

  // Search
  searchResultsFor: "نتائج البحث عن",
  searchTitle: "البحث",

  // Feeds (RSS)
  feedCategoryDescription: "آخر الأخبار في قسم",

  // Errors
  pageNotFound: "الصفحة غير موجودة",
  pageNotFoundBody: "لم نعثر على الصفحة التي تبحث عنها. ربما نُقلت أو حُذفت.",
  forbidden: "غير مسموح",
  forbiddenBody: "ليست لديك صلاحية الوصول إلى هذه الصفحة.",
  serverError: "حدث خطأ غير متوقع",
  serverErrorBody: "نعتذر، حدث خطأ في الخادم. يرجى المحاولة مرة أخرى بعد قليل.",
  badRequest: "طلب غير صالح",
  crossSiteRequest: "رُفض الطلب لأنه لم يصدر عن هذا الموقع.",
  methodNotAllowed: "طريقة الطلب هذه غير مدعومة.",
  signInRequired: "يجب تسجيل الدخول أولاً.",
  validationFailed: "بعض الحقول غير صالحة. يرجى تصحيحها ثم المحاولة مرة أخرى.",
  textHasNul: "يحتوي هذا الحقل على محرف فارغ غير مرئي (U+0000) لا يمكن حفظه. يرجى حذفه ثم المحاولة مرة أخرى.",
  conflict: "تعارض هذا الطلب مع تغيير آخر. يرجى إعادة تحميل الصفحة والمحاولة مرة أخرى.",
  requestTooLarge: "حجم الطلب أكبر من المسموح.",
  rateLimited: "طلبات كثيرة، يرجى المحاولة مجدداً بعد قليل.",
  serviceUnavailable: "الخدمة غير متاحة مؤقتاً. يرجى المحاولة مجدداً بعد قليل.",
  crossSiteTitle: "طلب من خارج الموقع",
  crossSiteSiteAddress: "عنوان الموقع هو",
  crossSitePageAddress: "أما الصفحة التي أُرسل منها الطلب فمفتوحة من",
  crossSiteUnknownPage: "موقع آخر",
  crossSiteAdvice: "افتح الموقع من عنوانه ثم أعد المحاولة.",
  otherAddressTitle: "عنوان آخر للموقع",
  otherAddressRequest: "فُتحت هذه الصفحة من عنوان آخر للموقع، ولا تُقبل النماذج إلا من عنوانه.",
  forwardedHostTitle: "وصل الطلب إلى عنوان آخر",
  forwardedHostRequest:
    "رُفض الطلب لأنه وصل إلى الخادم بعنوان غير عنوان الصفحة التي أُرسل منها. هذا خلل في إعداد الخادم لا في طلبك: أعد المحاولة لاحقاً، أو أبلغ القائمين على الموقع.",
  signingOut: "جارٍ تسجيل الخروج…",
  edit: "تعديل",
  delete: "حذف",
  copyShortLink: "نسخ الرابط القصير",
  adminTools: "أدوات المحرر",
  categoryInvalid: "يرجى اختيار قسم صحيح.",
  storageFull: "لا توجد مساحة كافية على الخادم لحفظ الملفات. لم يُنشر شيء؛ يرجى إبلاغ المسؤول التقني.",
  storageUnavailable: "تعذّر حفظ الملفات على الخادم. لم يُنشر شيء؛ يرجى المحاولة بعد قليل.",
  formMalformed: "تعذّرت قراءة النموذج. يرجى المحاولة مرة أخرى.",
  // Bylines, the author page and the dashboard's list
  byAuthor: "بقلم",
  authorArticles: "أخبار بقلم",
  // Operations
  databaseBusy: "الموقع مشغول بعملية أخرى الآن. يرجى المحاولة مجدداً بعد لحظات.",
  databaseUnavailable: "تعذّر الوصول إلى قاعدة البيانات الآن. يرجى المحاولة مجدداً بعد لحظات.",
  databaseFull: "لا توجد مساحة كافية على الخادم لحفظ البيانات. لم يُحفظ شيء؛ يرجى إبلاغ المسؤول التقني.",

  // Rich text: shared by the article body and the information pages.
  imageCredit: "تصوير:",
  embedYoutube: "شاهد الفيديو على يوتيوب",
  embedX: "اقرأ المنشور على منصة إكس",
  richTextInvalid: "تعذّر قراءة النص: أعد المحاولة، وإن تكرر الخطأ فانسخ النص إلى محرر جديد.",

  // An image the newsroom removed from the library, where a story showed it.
  removedImage: "حُذفت هذه الصورة من مكتبة الصور.",
} as const;

/** Each category's name as readers see it. */
export const categoryLabels = {
  local: "أخبار محلية",
  international: "أخبار دولية",
  educational: "أخبار تربوية",
  sports: "رياضة",
  miscellaneous: "منوعات",
  breaking: "عاجل",
  advertisement: "إعلانات",
};

/** The account page's link in the account menu: on its own, so reader pages' script does not carry accountMessages. */
export const accountMenuLink = "حسابي";

/** The page the service worker shows for a page it does not hold while offline. */
export const offlineMessages = {
  title: "أنت غير متصل بالإنترنت",
  text: "هذه الصفحة غير محفوظة على جهازك. الأخبار التي قرأتها مؤخراً وآخر الأخبار متاحة دون اتصال.",
  home: "العودة إلى الصفحة الرئيسية",
  retry: "إعادة المحاولة",
} as const;

/** Live coverage (decision 040) as readers see it; the desk's strings are liveDeskMessages. */
export const liveMessages = {
  live: "مباشر",
  liveCoverage: "تغطية مباشرة",
  updatesHeading: "آخر التحديثات",
  newUpdates: (count: number) => `تحديثات جديدة (${count.toLocaleString("ar-LB")})`,
  pinned: "تحديث مثبّت",
  noUpdates: "لا توجد تحديثات بعد.",
  closed: "انتهت التغطية المباشرة",
  summary: "خلاصة التغطية",
  updateLink: "رابط التحديث",
  by: "بقلم",
  rssTitle: (title: string) => `تحديثات: ${title}`,
  panelTitle: "التغطية المباشرة",
} as const;

/** The newsletter's sign-up form, on every article and in the footer: on its own, so those pages carry only these words. */
export const newsletterFormMessages = {
  formTitle: "أخبار البلدة في بريدك",
  email: "بريدك الإلكتروني",
  emailPlaceholder: "name@example.com",
  brief: "النشرة الصباحية (يومياً)",
  breaking: "الأخبار العاجلة فور نشرها",
  subscribe: "اشترك",
  moreChoices: "أقسام أخرى وتفاصيل النشرة",
} as const;

/** The newsletter: the sign-up form, its pages and the mails readers receive (on its own: no island carries it). */
export const newsletterMessages = {
  title: "النشرة البريدية",
  formHint: "بلا حساب ولا كلمة مرور: نرسل إليك رابط تأكيد، ولا يصلك شيء قبل أن تؤكّد.",
  brief: "النشرة الصباحية (يومياً)",
  breaking: "الأخبار العاجلة فور نشرها",
  categories: "وتنبيهات أخبار هذه الأقسام أيضاً (اختياري)",
  pageIntro:
    "نرسل كل صباح أبرز أخبار اليوم السابق والأكثر قراءة، والعاجل فور نشره إن اخترته. لا نحتفظ إلا بعنوانك واختياراتك، ويمكنك إلغاء الاشتراك بنقرة من أي رسالة.",
  checkInbox: "شكراً. إن كان العنوان صحيحاً فستصله رسالة خلال دقائق: افتح الرابط فيها لتأكيد اشتراكك.",
  emailInvalid: "اكتب عنوان بريد إلكتروني صحيحاً.",
  chooseOne: "اختر النشرة الصباحية أو العاجل، أو كليهما.",
  categoriesInvalid: "الأقسام المختارة غير صالحة.",
  tooMany: "طلبات اشتراك كثيرة من هذا العنوان. حاول مرة أخرى بعد قليل.",
  confirmButton: "تأكيد اشتراكي في النشرة",
  confirmedTitle: "تأكّد اشتراكك",
  confirmedText: "أهلاً بك. ستصلك النشرة بحسب اختياراتك، وفي كل رسالة رابط لتعديلها أو لإلغاء الاشتراك.",
  linkInvalidTitle: "الرابط غير صالح",
  linkInvalid: "انتهت صلاحية هذا الرابط أو لم يعد صالحاً. يمكنك الاشتراك من جديد من صفحة النشرة.",
  preferencesTitle: "اشتراكك في النشرة",
  preferencesFor: "العنوان",
  save: "حفظ الاختيارات",
  saved: "✅ حُفظت اختياراتك",
  unsubscribe: "إلغاء الاشتراك",
  unsubscribedTitle: "أُلغي اشتراكك",
  unsubscribedText: "لن تصلك أي رسالة أخرى من النشرة. يمكنك الاشتراك من جديد متى شئت.",
  notSubscribed: "هذا العنوان غير مشترك حالياً.",
  resubscribe: "الاشتراك من جديد",
  confirmMailSubject: "أكّد اشتراكك في نشرة {site}",
  confirmMailBody:
    "مرحباً،\n\nطُلب اشتراك هذا العنوان في نشرة {site} البريدية. لتأكيد الاشتراك افتح هذا الرابط (صالح سبعة أيام):\n\n{link}\n\nإن لم تطلب ذلك فتجاهل هذه الرسالة: لن يصلك شيء، ويُنسى العنوان بعد سبعة أيام.",
  alreadyMailSubject: "اشتراكك في نشرة {site}",
  alreadyMailBody:
    "مرحباً،\n\nطُلب الاشتراك بهذا العنوان في نشرة {site}، وهو مشترك من قبل. لتعديل اختياراتك أو إلغاء الاشتراك افتح هذا الرابط:\n\n{link}\n\nإن لم تطلب ذلك فتجاهل هذه الرسالة.",
  briefSubject: "النشرة الصباحية من {site}: {title}",
  breakingSubject: "عاجل من {site}: {title}",
  mailHeading: "النشرة الصباحية",
  mailBreakingHeading: "عاجل",
  readMore: "اقرأ الخبر",
  mailFooter: "وصلتك هذه الرسالة لأنك اشتركت في نشرة {site}.",
  mailPreferences: "تعديل اختياراتك",
  mailUnsubscribe: "إلغاء الاشتراك",
  mailTest: "[نسخة تجريبية] ",
} as const;
