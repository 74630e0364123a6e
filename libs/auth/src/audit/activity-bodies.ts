/** One entry of GET /me/activity. */
export interface ActivityBody {
  action: string;
  at: string;
  /** The client's network (IPv4 /24, IPv6 /48), or null. */
  ip: string | null;
  userAgent: string | null;
}

/** One entry of GET /admin/audit: who it is about, who acted, and its details when it has any. */
export interface AuditEventBody extends ActivityBody {
  userId: string | null;
  actorId: string | null;
  details?: Record<string, unknown>;
}

/** GET /admin/audit: a page, newest first, and the cursor of the next one (null on the last page). */
export interface AuditEventPage {
  events: AuditEventBody[];
  nextCursor: string | null;
}
