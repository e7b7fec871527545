/**
 * Every user-visible string. Those SPEC.md §8 gives are copied letter for letter.
 */
export const messages = {
  siteName: "أخبار الشمال",
  siteTagline: "أخبار طرابلس والشمال لحظة بلحظة",
  siteDescription: "موقع إخباري محلي يغطي أخبار طرابلس وعكار والشمال اللبناني، إلى جانب الأخبار الدولية والتربوية والرياضية.",

  // SPEC.md §8, news and content
  newsNotFound: "الخبر غير موجود",
  newsNotFoundAlert: "⚠️ الخبر غير موجود",
  publishFailed: "حدث خطأ أثناء نشر الخبر!",
  updateFailed: "❌ فشل تحديث الخبر",
  updateSucceeded: "✅ تم تحديث الخبر بنجاح",
  shortLinkCopied: "✅ تم نسخ الرابط القصير",
  shortLinkCopyFailed: "❌ فشل نسخ الرابط",
  shortLinkNotFound: "الرابط غير موجود",
  confirmDelete: "⚠️ هل أنت متأكد؟",
  confirmDeleteBreaking: "هل تريد حذف هذا الخبر العاجل؟",
  confirmDeleteArticle: "هل أنت متأكد من حذف هذا الخبر؟",
  noNews: "لا توجد أخبار حالياً",
  noBreakingNews: "لا يوجد أخبار عاجلة حالياً",
  noResults: "لا توجد نتائج.",
  shareUnsupported: "المشاركة غير مدعومة في هذا المتصفح، يرجى استخدام زر نسخ الرابط.",
  statusPublished: "منشور",
  statusDraft: "مسودة",
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
  footerAbout: "موقع إخباري مستقل يغطي أخبار طرابلس والشمال اللبناني بموضوعية ودقة.",
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
  imageOf: "صورة من خبر",

  // Category pages
  page: "الصفحة",
  nextPage: "الصفحة التالية",
  previousPage: "الصفحة السابقة",

  // Search
  searchResultsFor: "نتائج البحث عن",
  searchTitle: "البحث",

  // Errors
  pageNotFound: "الصفحة غير موجودة",
  pageNotFoundBody: "لم نعثر على الصفحة التي تبحث عنها. ربما نُقلت أو حُذفت.",
  forbidden: "غير مسموح",
  forbiddenBody: "ليست لديك صلاحية الوصول إلى هذه الصفحة.",
  serverError: "حدث خطأ غير متوقع",
  serverErrorBody: "نعتذر، حدث خطأ في الخادم. يرجى المحاولة مرة أخرى بعد قليل.",
  badRequest: "طلب غير صالح",
} as const;

export type MessageKey = keyof typeof messages;
