import type { Generated } from "kysely";
import type { NewsStatus } from "~/lib/news";

export type RevisionKind = "save" | "autosave";

/** The story's own fields (migration 021), on an article and on each of its revisions: noindex 0/1. */
export interface StoryColumns {
  standfirst: string | null;
  slug: string | null;
  share_title: string | null;
  share_description: string | null;
  share_image: string | null;
  noindex: Generated<number>;
}

export interface NewsTable extends StoryColumns {
  id: string;
  title: string;
  content: string;
  category: string;
  /** JSON list of image URLs. */
  images: string;
  image_url: string | null;
  video: string | null;
  is_video: number;
  status: NewsStatus;
  visits: Generated<number>;
  author_id: string | null;
  /** Wire and guest stories: shown instead of the author's name. */
  byline: string | null;
  /** The body as a structured document, JSON (lib/rich-text/document.ts); NULL for bodies written before migration 011: `content` as paragraphs. */
  body: string | null;
  /** JSON object from an image's URL in `images` to its alt, caption and credit (lib/image-details.ts); NULL when none. */
  image_details: string | null;
  created_at: string;
  updated_at: string | null;
  published_at: string | null;
  /** When a scheduled article goes out (the scheduler publishes it then). */
  publish_at: string | null;
  submission_id: string | null;
  /** An editor's note when sending the article back to its author (migration 007). */
  review_note: string | null;
  /** In the trash: the status it had before, to go back to on restore. */
  trashed_from: NewsStatus | null;
  /** When it went to the trash; purged for good 30 days later. */
  deleted_at: string | null;
  /** Counts the writes of the story; a save names the one it was based on (migration 023). */
  version: Generated<number>;
  /** An editor asked for a Web Push alert when the story is published (migration 025). */
  send_alert: Generated<number>;
}

/** An article's previous version, kept at each save (app/server/news/revisions.server.ts). */
export interface NewsRevisionsTable extends StoryColumns {
  id: Generated<number>;
  news_id: string;
  title: string;
  content: string;
  category: string;
  /** JSON list of image URLs. */
  images: string;
  image_url: string | null;
  video: string | null;
  author_id: string | null;
  byline: string | null;
  body: string | null;
  image_details: string | null;
  /** JSON list of the article's topic names at that version (migration 020); NULL before it. */
  topics: string | null;
  /** Who made the save that replaced this version. */
  saved_by: string | null;
  /** The kind of save that replaced this version: consecutive autosaves by one person keep one revision. */
  kind: Generated<RevisionKind>;
  saved_at: string;
}

export interface ShortLinksTable {
  short_id: string;
  long_url: string;
  news_id: string;
  created_at: string;
}

export interface SiteStatsTable {
  id: number;
  total_visits: number;
}

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  role: Generated<string>;
  /** Set while an admin has the account disabled. */
  disabledAt: string | null;
  /** The author page's short bio and links, a JSON list of URLs (migration 022). */
  bio: string | null;
  links: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: string | null;
  refreshTokenExpiresAt: string | null;
  scope: string | null;
  password: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

export interface AuthAttemptsTable {
  id: Generated<number>;
  /** A keyed hash of what is counted (address, or account and address), never the address itself. */
  key: string;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface VisitMarksTable {
  /** A keyed hash of the client's address, the article (or the site) and the day. */
  key: string;
  /** YYYY-MM-DD (UTC), so old days can be pruned. */
  day: string;
}

/** On SQLite, FTS5, contentless: each article's index terms under a rowid that encodes its date (search-index.sqlite.server.ts). */
export interface SqliteNewsSearchTable {
  rowid: number;
  terms: string;
}

/** On PostgreSQL, each article's index keys with what orders and filters it (search-index.postgres.server.ts). */
export interface PostgresNewsSearchTable {
  news_id: string;
  entry: Generated<number>;
  created_at: string;
  published: boolean;
  title_keys: string[];
  keys: string[];
}

/** SQLite only: FTS5 rowid ↔ article. */
export interface NewsSearchKeysTable {
  search_rowid: number;
  news_id: string;
}

/** Every term in the index, to expand a prefix into the terms it stands for. */
export interface NewsSearchTermsTable {
  term: string;
}

/** The outbox (app/server/outbox/): every change readers can see, in commit order. */
export interface EventsTable {
  id: Generated<number>;
  kind: string;
  article_id: string | null;
  /** JSON: what the change's consumers need (outbox.server.ts). */
  payload: string;
  created_at: string;
}

/** What the Firebase import brought over (migration 017): `kind` is article, account, media or site-visits. */
export interface FirebaseImportsTable {
  kind: string;
  source_id: string;
  /** A hash of the source document as last imported; for media and site visits, the source itself. */
  fingerprint: string;
  /** Where it went: the stored media URL, the visits added. */
  target: string | null;
}

/** The site's own settings: one row (id 1), its values as JSON (app/server/site-settings/). */
export interface SiteSettingsTable {
  id: number;
  value: string;
  updated_at: string;
  updated_by: string | null;
}

/** The front page editors chose (migration 019): a slot (`slide:1`…`slide:4`, `pin:<category>`), its story, until when. */
export interface FrontPagePlacementsTable {
  slot: string;
  kind: "slide" | "pin";
  /** The slide's place, 1 the lead; 0 for a pin. */
  position: number;
  category: string | null;
  news_id: string;
  until: string;
  set_by: string | null;
  set_at: string;
}

/** A topic articles are about (migration 020, app/server/news/topics.server.ts). */
export interface TopicsTable {
  id: string;
  name: string;
  /** Its address, /topic/{slug}: the name's words in Arabic, joined by hyphens (lib/topics.ts). */
  slug: string;
  /** The name as search normalises it: one topic however it is spelt. */
  key: string;
  /** What the topic is, set on its admin page and shown on its page (migration 033). */
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** A mail to editors that a story waits for review, claimed by the process that sends it (migration 033, news/review-mail.server.ts). */
export interface ReviewMailsTable {
  /** The outbox event of the submission. */
  event_id: number;
  news_id: string;
  claimed_at: string;
  sent_at: string | null;
}

/** An article's topics, in the order the form gave them. */
export interface NewsTopicsTable {
  news_id: string;
  topic_id: string;
  position: number;
}

/** A slug a rename or a merge left behind, answered with a 301 to its topic's own. */
export interface TopicRedirectsTable {
  slug: string;
  topic_id: string;
}

/** The media library (migration 024, app/server/news/media-library.server.ts): one row per stored article image. */
export interface MediaTable {
  /** The full-size image's `/media/news-images/….webp` URL. */
  url: string;
  uploaded_by: string | null;
  created_at: string;
  width: number | null;
  height: number | null;
  /** The alt text, caption and credit a story gets when it takes the image from the library. */
  alt: Generated<string>;
  caption: Generated<string>;
  credit: Generated<string>;
  /** The point every crop keeps in frame, 0–1 from the left and from the top; NULL: the centre. */
  focal_x: number | null;
  focal_y: number | null;
}

/** A video's poster (migrations 024 and 032, app/server/news/video-posters.server.ts): a story's, for the video it was set for. */
export interface VideoPostersTable {
  news_id: string;
  video_url: string;
  /** A stored image of the media library. */
  poster_url: string;
  set_by: string | null;
  set_at: string;
}

/** An image an editor removed from the library while only earlier versions used it (migration 032): those versions say so. */
export interface RemovedMediaTable {
  url: string;
  removed_by: string | null;
  removed_at: string;
}

/** The site's VAPID key pair (migration 025, app/server/push/vapid-keys.server.ts): one row, id 1. */
export interface PushKeysTable {
  id: number;
  /** base64url, as browsers take it for applicationServerKey. */
  public_key: string;
  private_key: string;
  created_at: string;
}

/** A reader's Web Push subscription (migration 025): nothing more than sending needs. */
export interface PushSubscriptionsTable {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** JSON array of the categories beyond breaking. */
  categories: string;
  created_at: string;
}

/** One alert per story sent (migration 025) and its counts. */
export interface PushAlertsTable {
  id: Generated<number>;
  /** The story: one alert of its own (no `live_update_id`), and one per live update sent as an alert (migration 035). */
  article_id: string;
  kind: "breaking" | "manual";
  created_at: string;
  /** The encrypted message's JSON, set with the deliveries; null until then. */
  payload: string | null;
  category: string | null;
  sent: Generated<number>;
  delivered: Generated<number>;
  failed: Generated<number>;
  removed: Generated<number>;
  opened: Generated<number>;
  /** Messages sent again after a request the push service may have received unanswered (migration 030). */
  repeated: Generated<number>;
  /** The live update this alert sends (migration 027), its key (unique, migration 035); null for a story's own alert. */
  live_update_id: string | null;
}

/** A delivery still to make (migration 025): gone once its outcome is counted on its alert. */
export interface PushDeliveriesTable {
  id: Generated<number>;
  alert_id: number;
  endpoint: string;
  attempts: Generated<number>;
  due_at: string;
  claimed_until: string | null;
  /** The claim's holder: a sender's lease, renewed while it lives (migration 030). */
  claimed_by: string | null;
  /** Requests the push service may have received but never answered (migration 030). */
  unanswered: Generated<number>;
}

/** An opened notification, counted once (migration 031, app/server/push/alerts.server.ts). */
export interface PushOpensTable {
  alert_id: number;
  /** The delivery whose payload carried the open token. */
  delivery_id: number;
}

/** A story opened as live coverage (migration 027): live, or closed with its summary. */
export interface LiveCoverageTable {
  news_id: string;
  state: "live" | "closed";
  summary: string | null;
  started_at: string;
  ended_at: string | null;
}

/** One update of a live coverage (migration 027). */
export interface LiveUpdatesTable {
  id: string;
  news_id: string;
  /** The structured document as JSON. */
  body: string;
  text: string;
  author_id: string;
  author_name: string;
  pinned: Generated<boolean | number>;
  alert: Generated<boolean | number>;
  created_at: string;
  updated_at: string;
  /** The desk form's key (migration 029): the same form posted twice is one update. */
  submission_id: string | null;
}

/** Distinct browsers counted per keyed hash of address, target and day (migration 026): the inflation bound. */
export interface VisitAllowancesTable {
  key: string;
  /** YYYY-MM-DD (UTC), so old days can be pruned. */
  day: string;
  used: number;
}

/** Views per story, source class and device class (migration 026): a UTC hour `YYYY-MM-DDTHH` or a Beirut day `YYYY-MM-DD`. */
export interface StatsViewsTable {
  period: string;
  news_id: string;
  source: string;
  device: string;
  views: number;
}

/** Distinct browsers per UTC hour or Beirut day (migration 026). */
export interface StatsReadersTable {
  period: string;
  readers: number;
}

/** Who read which story in the last minutes (migration 026): the minute since the epoch and a short keyed hash of the browser. */
export interface StatsLiveTable {
  minute: number;
  news_id: string;
  reader: string;
}

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed" | "bounced";

/** A newsletter subscriber (migration 036): only the address and its choices, and when. */
export interface NewsletterSubscribersTable {
  id: Generated<number>;
  /** Lowercase, unique. */
  email: string;
  brief: Generated<boolean | number>;
  breaking: Generated<boolean | number>;
  /** JSON array of category keys. */
  categories: Generated<string>;
  status: SubscriberStatus;
  imported: Generated<boolean | number>;
  created_at: string;
  /** The last sign-up: its confirmation link holds seven days from it. */
  requested_at: string;
  confirmed_at: string | null;
  changed_at: string;
}

export type SendingKind = "brief" | "breaking";
/** draft: editable, goes at its hour; queued: to prepare; sending: deliveries made; sent: none left. */
export type SendingStatus = "draft" | "queued" | "sending" | "sent";

/** One newsletter mail (migration 036): a day's brief or a breaking story's, its content and counts. */
export interface NewsletterSendingsTable {
  id: Generated<number>;
  kind: SendingKind;
  /** A brief's Beirut day, YYYY-MM-DD (unique). */
  day: string | null;
  /** A breaking mail's story (unique). */
  article_id: string | null;
  /** JSON array of story ids, in order. */
  story_ids: string;
  opening: Generated<string>;
  status: SendingStatus;
  scheduled_at: string;
  created_at: string;
  /** An editor changed it: its stories are not chosen again when it goes. */
  edited_at: string | null;
  prepared_at: string | null;
  /** The mail as rendered once at preparation, each recipient's links filled in at sending. */
  subject: string | null;
  html: string | null;
  plain: string | null;
  recipients: Generated<number>;
  sent: Generated<number>;
  refused: Generated<number>;
  bounced: Generated<number>;
}

/** A sending still owed to a subscriber (migration 036), claimed under a lease; deleted with its outcome. */
export interface NewsletterDeliveriesTable {
  id: Generated<number>;
  sending_id: number;
  subscriber_id: number;
  attempts: Generated<number>;
  due_at: string;
  claimed_until: string | null;
  claimed_by: string | null;
}

export interface Database {
  news: NewsTable;
  news_revisions: NewsRevisionsTable;
  short_links: ShortLinksTable;
  site_stats: SiteStatsTable;
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  auth_attempts: AuthAttemptsTable;
  visit_marks: VisitMarksTable;
  news_search: SqliteNewsSearchTable | PostgresNewsSearchTable;
  news_search_keys: NewsSearchKeysTable;
  news_search_terms: NewsSearchTermsTable;
  events: EventsTable;
  firebase_imports: FirebaseImportsTable;
  site_settings: SiteSettingsTable;
  front_page_placements: FrontPagePlacementsTable;
  topics: TopicsTable;
  news_topics: NewsTopicsTable;
  topic_redirects: TopicRedirectsTable;
  review_mails: ReviewMailsTable;
  media: MediaTable;
  video_posters: VideoPostersTable;
  removed_media: RemovedMediaTable;
  push_keys: PushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  push_alerts: PushAlertsTable;
  push_deliveries: PushDeliveriesTable;
  push_opens: PushOpensTable;
  live_coverage: LiveCoverageTable;
  live_updates: LiveUpdatesTable;
  visit_allowances: VisitAllowancesTable;
  stats_hourly: StatsViewsTable;
  stats_daily: StatsViewsTable;
  stats_readers: StatsReadersTable;
  stats_live: StatsLiveTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  newsletter_sendings: NewsletterSendingsTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
}
