declare module "virtual:task-cards" {
	import type { TaskCard } from "./view/task-cards";
	const cards: TaskCard[];
	export default cards;
}

declare module "virtual:task-index" {
	import type { TaskIndex } from "./view/tasks";
	const index: TaskIndex;
	export default index;
}

declare module "virtual:task-data" {
	import type { TaskPageData } from "./view/tasks";
	/** One loader per task with a page: its full data, a chunk of its own. */
	const loaders: Record<string, () => Promise<{ default: TaskPageData }>>;
	export default loaders;
}

declare module "virtual:library-index" {
	import type { LibraryIndex } from "./view/libraries";
	/** Every library of the catalogue without its snippet generator, in catalogue order. */
	const index: LibraryIndex;
	export default index;
}
