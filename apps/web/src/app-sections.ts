/**
 * The first path segments the app routes itself (App.tsx), so a page address starting with one of them
 * is never a model id. The hub's page statuses (packages/hub/src/web/page-meta.ts) list the same
 * sections; a browser test checks that each answers 200 with its own title.
 */
export const APP_SECTIONS = [
	"tasks",
	"libraries",
	"models",
	"settings",
	"account",
	"new",
	"login",
	"join",
	"logout",
] as const;

export type AppSection = (typeof APP_SECTIONS)[number];

/** First segments of the app's deeper pages only (`/organizations/{org}/settings`). */
const NESTED_SECTIONS = ["organizations"] as const;

/** Served by the hub itself, never by the app: the API and static assets. */
const SERVER_SECTIONS = ["api", "assets"] as const;

const RESERVED = new Set<string>([...APP_SECTIONS, ...NESTED_SECTIONS, ...SERVER_SECTIONS]);

/** Whether a first path segment belongs to the app or the server rather than to a model id. */
export function isReservedSection(segment: string): boolean {
	return RESERVED.has(segment);
}
