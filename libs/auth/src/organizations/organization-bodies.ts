/** An organization as its member sees it in a list: with the caller's role in it (docs/guides/organizations.md). */
export interface OrganizationMembership {
  id: string;
  name: string;
  slug: string;
  role: string;
}

/** A member as GET /organizations/{id} lists it. */
export interface OrganizationMemberBody {
  userId: string;
  email: string;
  role: string;
  joinedAt: string;
}

/** GET /organizations/{id}: the organization and its members, earliest first. */
export interface OrganizationDetails {
  id: string;
  name: string;
  slug: string;
  members: OrganizationMemberBody[];
}

/** POST /organizations/{id}/invitations: the invitation, never its token. */
export interface InvitationBody {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}
