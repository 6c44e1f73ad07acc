/**
 * The first path segments the app routes itself (App.tsx), so a page address starting with one of them
 * is never a model id. Declared once in @modelhub/tasks/repositories, with the hub's page statuses
 * (packages/hub/src/web/page-meta.ts) and reserved account names; a browser test checks that each
 * section answers 200 with its own title.
 */
import { APP_SECTIONS, NESTED_APP_SECTIONS, SERVER_SECTIONS } from "@modelhub/tasks/repositories";

export { APP_SECTIONS, type AppSection } from "@modelhub/tasks/repositories";

const RESERVED = new Set<string>([...APP_SECTIONS, ...NESTED_APP_SECTIONS, ...SERVER_SECTIONS]);

/** Whether a first path segment belongs to the app or the server rather than to a model id. */
export function isReservedSection(segment: string): boolean {
	return RESERVED.has(segment);
}
