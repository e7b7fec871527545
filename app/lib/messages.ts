import type { Category } from "./categories";

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
  statusReview: "بانتظار المراجعة",
  statusScheduled: "مجدول",
  statusTrashed: "في المهملات",
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

  categoryDescriptionSuffix: "من طرابلس والشمال ولبنان والعالم: آخر الأخبار والتقارير على موقع أخبار الشمال.",
  breakingDescription: "آخر الأخبار العاجلة من طرابلس والشمال اللبناني، محدّثة لحظة بلحظة.",
  authDescription: "تسجيل الدخول أو إنشاء حساب في موقع أخبار الشمال.",
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
  feedDescription: "آخر أخبار طرابلس وعكار والشمال اللبناني من موقع أخبار الشمال.",
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
  conflict: "تعارض هذا الطلب مع تغيير آخر. يرجى إعادة تحميل الصفحة والمحاولة مرة أخرى.",
  requestTooLarge: "حجم الطلب أكبر من المسموح.",
  rateLimited: "طلبات كثيرة، يرجى المحاولة مجدداً بعد قليل.",
  serviceUnavailable: "الخدمة غير متاحة مؤقتاً. يرجى المحاولة مجدداً بعد قليل.",
  crossSiteTitle: "طلب من خارج الموقع",
  crossSiteSiteAddress: "عنوان الموقع هو",
  crossSitePageAddress: "أما الصفحة التي أُرسل منها الطلب فمفتوحة من",
  crossSiteUnknownPage: "موقع آخر",
  crossSiteAdvice: "افتح الموقع من عنوانه ثم أعد المحاولة.",

  // Accounts (/autenction)
  authTitle: "الحساب",
  signInTitle: "تسجيل الدخول",
  signUpTitle: "إنشاء حساب",
  haveNoAccount: "ليس لديك حساب؟",
  haveAccount: "لديك حساب بالفعل؟",
  username: "اسم المستخدم",
  email: "البريد الإلكتروني",
  password: "كلمة المرور",
  signInSubmit: "دخول",
  signUpSubmit: "إنشاء الحساب",
  signingIn: "جارٍ تسجيل الدخول…",
  signingUp: "جارٍ إنشاء الحساب…",
  signingOut: "جارٍ تسجيل الخروج…",
  fieldRequired: "هذا الحقل مطلوب.",
  usernameTooLong: "اسم المستخدم طويل جداً (٥٠ حرفاً على الأكثر).",
  usernameInvalid: "اسم المستخدم يحتوي على رموز غير مسموح بها.",
  emailTooLong: "البريد الإلكتروني طويل جداً.",
  passwordTooLong: "كلمة المرور طويلة جداً (١٢٨ حرفاً على الأكثر).",
  passwordHint: "٦ أحرف على الأقل.",
  signedInAs: "مرحباً",
  userIdMissing: "User ID is missing",
  userNotFound: "User not found",

  // Dashboard
  siteStatistics: "إحصاءات الموقع",
  totalSiteVisits: "إجمالي زيارات الموقع",
  publishTitle: "نشر خبر جديد",
  allArticles: "كل الأخبار",
  fieldTitle: "العنوان",
  fieldContent: "نص الخبر",
  fieldContentHint: "اترك سطراً فارغاً بين الفقرات.",
  fieldCategory: "القسم",
  fieldStatus: "الحالة",
  statusPublishNow: "نشر الآن",
  statusSaveDraft: "حفظ كمسودة",
  fieldImages: "الصور",
  fieldImagesHint: "JPEG أو PNG أو WebP أو AVIF أو GIF، حتى ١٥ ميغابايت للصورة.",
  fieldVideoFile: "ملف فيديو",
  fieldVideoHint: "MP4 أو WebM حتى ٣٠٠ ميغابايت، أو رابط يوتيوب أو رابط فيديو.",
  fieldVideoUrl: "رابط الفيديو",
  fieldImageUrl: "رابط صورة إضافية (اختياري)",
  currentImages: "الصور الحالية",
  removeImage: "حذف هذه الصورة",
  removeVideo: "حذف الفيديو الحالي",
  publishSubmit: "نشر الخبر",
  saveSubmit: "حفظ التعديلات",
  uploading: "جارٍ الرفع…",
  published: "✅ تم نشر الخبر بنجاح",
  viewArticle: "عرض الخبر",
  editTitle: "تعديل الخبر",
  edit: "تعديل",
  delete: "حذف",
  copyShortLink: "نسخ الرابط القصير",
  tableTitle: "العنوان",
  tableCategory: "القسم",
  tableStatus: "الحالة",
  tableDate: "التاريخ",
  tableVisits: "الزيارات",
  tableActions: "إجراءات",
  adminTools: "أدوات المحرر",
  titleRequired: "العنوان مطلوب.",
  titleTooLong: "العنوان طويل جداً (٣٠٠ حرف على الأكثر).",
  contentRequired: "نص الخبر مطلوب.",
  contentTooLong: "نص الخبر طويل جداً.",
  categoryInvalid: "يرجى اختيار قسم صحيح.",
  statusInvalid: "يرجى اختيار حالة صحيحة.",
  videoUrlInvalid: "رابط الفيديو غير صالح: يجب أن يبدأ بـ https:// أو http://.",
  imageUrlInvalid: "رابط الصورة غير صالح: يجب أن يبدأ بـ https:// أو http://.",
  imageInvalid: "أحد الملفات ليس صورة صالحة (JPEG أو PNG أو WebP أو AVIF أو GIF).",
  imageTooLarge: "حجم الصورة يتجاوز ١٥ ميغابايت.",
  videoInvalid: "ملف الفيديو ليس MP4 أو WebM صالحاً.",
  videoTooLarge: "حجم الفيديو يتجاوز ٣٠٠ ميغابايت.",
  storageFull: "لا توجد مساحة كافية على الخادم لحفظ الملفات. لم يُنشر شيء؛ يرجى إبلاغ المسؤول التقني.",
  storageUnavailable: "تعذّر حفظ الملفات على الخادم. لم يُنشر شيء؛ يرجى المحاولة بعد قليل.",
  tooManyFiles: "عدد الملفات كبير جداً (١٠ صور وفيديو واحد على الأكثر).",
  formMalformed: "تعذّرت قراءة النموذج. يرجى المحاولة مرة أخرى.",
  alreadySubmitted: "تم إرسال هذا النموذج من قبل، ولم يُنشر الخبر مرتين.",
  draftBadge: "مسودة",
  // Bylines, the author page and the dashboard's list (issue 17)
  byAuthor: "بقلم",
  authorArticles: "أخبار بقلم",
  fieldByline: "التوقيع (اختياري)",
  fieldBylineHint: "لأخبار الوكالات والمراسلين الضيوف، مثل «وكالات» أو «مراسلنا في عكار»: يظهر بدل اسم الكاتب.",
  bylineTooLong: "التوقيع طويل جداً (٨٠ حرفاً على الأكثر).",
  savedAsDraft: "✅ تم حفظ الخبر كمسودة",
  savedForReview: "✅ تم إرسال الخبر للمراجعة",
  savedAsScheduled: "✅ تمت جدولة الخبر",
  tableAuthor: "الكاتب",
  filterTitle: "ابحث في العناوين",
  filterAllStatuses: "كل الحالات",
  filterAllCategories: "كل الأقسام",
  filterAllAuthors: "كل الكتّاب",
  filterApply: "تصفية",
  filterClear: "إلغاء التصفية",
  filterNoMatch: "لا توجد أخبار تطابق التصفية.",
  // Operations
  databaseBusy: "الموقع مشغول بعملية أخرى الآن. يرجى المحاولة مجدداً بعد لحظات.",
} as const;

/** Each category's name as readers see it. */
export const categoryLabels: Record<Category, string> = {
  local: "أخبار محلية",
  international: "أخبار دولية",
  educational: "أخبار تربوية",
  sports: "رياضة",
  miscellaneous: "منوعات",
  breaking: "عاجل",
  advertisement: "إعلانات",
};

/**
 * SPEC.md §8's authentication catalogue, letter for letter (English as given), with the
 * Arabic translation the sign-in form shows above it.
 */
export const authErrors = {
  "user-not-found": {
    catalogue: "This email is not registered, please make sure you enter a registered email.",
    arabic: "هذا البريد الإلكتروني غير مسجّل، يرجى التأكد من إدخال بريد مسجّل.",
  },
  "wrong-password": {
    catalogue: "The password entered is wrong. Please make sure you enter the correct password.",
    arabic: "كلمة المرور غير صحيحة. يرجى التأكد من إدخال كلمة المرور الصحيحة.",
  },
  "weak-password-short": {
    catalogue: "The password should be at least 6 characters.",
    arabic: "يجب أن تتكون كلمة المرور من ٦ أحرف على الأقل.",
  },
  "weak-password": {
    catalogue: "Weak password. Please choose a stronger password.",
    arabic: "كلمة المرور ضعيفة. يرجى اختيار كلمة مرور أقوى.",
  },
  "email-already-in-use": {
    catalogue: "The email address is already in use. Please use a different email.",
    arabic: "البريد الإلكتروني مستخدم بالفعل. يرجى استخدام بريد آخر.",
  },
  "invalid-email": {
    catalogue: "Invalid email address. Please enter a valid email.",
    arabic: "البريد الإلكتروني غير صالح. يرجى إدخال بريد صحيح.",
  },
  "operation-not-allowed": {
    catalogue: "This operation is currently not allowed. Please try again later.",
    arabic: "هذه العملية غير مسموحة حالياً. يرجى المحاولة لاحقاً.",
  },
  "too-many-requests": {
    catalogue: "Too many requests, please try again in some minutes",
    arabic: "طلبات كثيرة، يرجى المحاولة مجدداً بعد بضع دقائق.",
  },
  // Ours, not SPEC's: the registration cap per address.
  "too-many-sign-ups": {
    catalogue: "Many accounts were created from this network address in the last hour. Please try again later.",
    arabic: "أُنشئ عدد كبير من الحسابات من عنوان هذه الشبكة خلال الساعة الأخيرة. يرجى المحاولة لاحقاً.",
  },
  unknown: {
    catalogue: "An error occurred. Please try again.",
    arabic: "حدث خطأ. يرجى المحاولة مرة أخرى.",
  },
} as const;

export type AuthErrorCode = keyof typeof authErrors;
