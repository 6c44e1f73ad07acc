/**
 * The first path segments that never name an account or a model: declared once, for the web app's
 * router (apps/web/src/app-sections.ts), the hub's page statuses and its reserved account names (an
 * account's profile is at `/{name}`, so an account called `models` would have a page the app shows
 * something else at).
 */

/** The web app's own one-segment pages (`/models`, `/settings`…). */
export const APP_SECTIONS = [
	"tasks",
	"libraries",
	"models",
	"datasets",
	"settings",
	"account",
	"new",
	"new-dataset",
	"login",
	"join",
	"logout",
] as const;
export type AppSection = (typeof APP_SECTIONS)[number];

/** First segments of the app's deeper pages only (`/organizations/{org}/settings`). */
export const NESTED_APP_SECTIONS = ["organizations"] as const;

/** Served by the hub itself, never by the app: the API and static assets. */
export const SERVER_SECTIONS = ["api", "assets"] as const;

/** Kept for pages and routes to come (repository types, documentation, search, administration, health). */
export const FUTURE_SECTIONS = ["spaces", "docs", "search", "admin", "healthz"] as const;

/** Every first segment no account may take as its name (compared case-insensitively: account names are). */
export const RESERVED_FIRST_SEGMENTS = [
	...SERVER_SECTIONS,
	...APP_SECTIONS,
	...NESTED_APP_SECTIONS,
	...FUTURE_SECTIONS,
] as const;
